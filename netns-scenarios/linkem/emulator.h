// linkem's event loop: two AF_PACKET ports, one Direction and DelayLine per direction, a unix
// control socket, a stats file, a schedule of setting changes and signal handling.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "netns-scenarios/linkem/delay_line.h"
#include "netns-scenarios/linkem/direction.h"
#include "netns-scenarios/linkem/frame_pool.h"
#include "netns-scenarios/linkem/packet_io.h"
#include "netns-scenarios/linkem/schedule.h"

namespace linkem {

// Options of one emulator run (from the command line).
struct EmulatorOptions {
  std::string if_a, if_b;            // frames from a go to b (direction a2b) and back (b2a)
  DirectionSettings a2b, b2a;
  std::uint64_t seed = 0;
  std::string control_socket;        // empty: none
  std::string stats_file;            // empty: none; else rewritten every stats_interval
  std::int64_t stats_interval_ns = 1000000000;
  std::vector<ScheduledChange> schedule;
  std::int64_t spin_ns = 0;          // busy-poll when the next deadline is this close
  std::int64_t duration_ns = 0;      // 0: run until SIGINT/SIGTERM
  int batch = 64;                    // frames per recvmmsg/sendmmsg
};

// The running emulator.
class Emulator {
 public:
  // Opens both ports and the control socket (throws std::runtime_error on failure).
  explicit Emulator(const EmulatorOptions& o);
  ~Emulator();
  // Runs until a stop signal or the duration ends.
  void run();
  // Settings, counters and seeds as JSON.
  nlohmann::json stats_json();

 private:
  // Both directions share this shape.
  struct Side {
    Direction dir;
    DelayLine line;
    Port* in;
    Port* out;
  };
  // Current monotonic time in ns.
  static std::int64_t now_ns();
  // Reads every waiting frame from `s.in` and schedules it.
  void receive(Side& s);
  // Writes every frame of `s` due by `now`.
  void transmit(Side& s, std::int64_t now);
  // Earliest time something must happen.
  std::int64_t next_deadline() const;
  // Applies due schedule entries.
  void apply_schedule(std::int64_t now);
  // Applies `spec` to a target; returns an error message or "".
  std::string apply(Target t, const std::string& spec);
  // Serves one control connection.
  void serve_control();
  // Answers one control command line.
  std::string handle_command(const std::string& line);
  // Rewrites the stats file atomically.
  void write_stats_file();
  // Handles one signal from the signalfd; false means stop.
  bool handle_signal();

  EmulatorOptions o_;
  Port a_, b_;
  Side sides_[2];
  FramePool pool_;
  int epfd_ = -1, sigfd_ = -1, ctlfd_ = -1;
  std::int64_t start_ns_ = 0, next_stats_ns_ = 0;
  std::size_t next_change_ = 0;
};

}  // namespace linkem
