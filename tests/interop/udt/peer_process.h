// Runs the libudt peer program as a child process and reads its stdout lines without blocking.
#pragma once
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace ncgw::udt::interop {

class PeerProcess {
 public:
  // Starts `path` with `args`; stdout goes to a pipe.
  PeerProcess(const std::string& path, const std::vector<std::string>& args) {
    int fds[2];
    if (pipe(fds) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(fds[1], 1);
      close(fds[0]);
      close(fds[1]);
      std::vector<char*> argv;
      argv.push_back(const_cast<char*>(path.c_str()));
      for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv(path.c_str(), argv.data());
      _exit(127);
    }
    close(fds[1]);
    fd_ = fds[0];
    fcntl(fd_, F_SETFL, O_NONBLOCK);
  }
  ~PeerProcess() {
    if (pid_ > 0 && !exited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (fd_ >= 0) close(fd_);
  }
  // The next complete output line, if one is available now.
  std::optional<std::string> line() {
    char b[4096];
    for (;;) {
      const ssize_t n = read(fd_, b, sizeof b);
      if (n <= 0) break;
      buf_.append(b, static_cast<std::size_t>(n));
    }
    const auto nl = buf_.find('\n');
    if (nl == std::string::npos) return std::nullopt;
    std::string l = buf_.substr(0, nl);
    buf_.erase(0, nl + 1);
    return l;
  }
  // Waits up to `t` for a line.
  std::optional<std::string> wait_line(std::chrono::milliseconds t) {
    const auto end = std::chrono::steady_clock::now() + t;
    while (std::chrono::steady_clock::now() < end) {
      if (auto l = line()) return l;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return std::nullopt;
  }
  // Waits up to `t` for exit; the exit status or -1.
  int wait_exit(std::chrono::milliseconds t) {
    const auto end = std::chrono::steady_clock::now() + t;
    while (std::chrono::steady_clock::now() < end) {
      int st = 0;
      if (waitpid(pid_, &st, WNOHANG) == pid_) {
        exited_ = true;
        return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return -1;
  }
  bool started() const { return pid_ > 0; }

 private:
  pid_t pid_ = -1;
  int fd_ = -1;
  bool exited_ = false;
  std::string buf_;
};

}  // namespace ncgw::udt::interop
