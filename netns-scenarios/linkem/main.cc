// linkem: a userspace link emulator. Forwards Ethernet frames between two interfaces with
// AF_PACKET, applying per-direction delay, jitter, rate, drop-tail queue, loss, duplication and
// reordering. `linkem run ...` emulates; `linkem ctl --socket PATH CMD` talks to a running one.
#include <sched.h>
#include <sys/prctl.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

#include "netns-scenarios/linkem/control_client.h"
#include "netns-scenarios/linkem/emulator.h"
#include "netns-scenarios/linkem/settings.h"

namespace {

// Command-line values before parsing into EmulatorOptions.
struct RunArgs {
  std::string if_a, if_b, a2b, b2a, both, schedule_file, seed_text, duration;
  std::string spin = "0";
  std::string stats_interval = "1s";
  int fifo = 0;
  bool no_prepare = false;
};

// Turns run arguments into emulator options; throws CLI::ValidationError on bad values.
linkem::EmulatorOptions to_options(const RunArgs& a, linkem::EmulatorOptions o) {
  o.if_a = a.if_a;
  o.if_b = a.if_b;
  for (auto* d : {&o.a2b, &o.b2a}) {
    std::string e = linkem::apply_spec(a.both, *d);
    if (!e.empty()) throw CLI::ValidationError("--both", e);
  }
  if (auto e = linkem::apply_spec(a.a2b, o.a2b); !e.empty()) throw CLI::ValidationError("--a2b", e);
  if (auto e = linkem::apply_spec(a.b2a, o.b2a); !e.empty()) throw CLI::ValidationError("--b2a", e);
  if (a.seed_text.empty()) o.seed = std::random_device{}() ^ (std::uint64_t{std::random_device{}()} << 32);
  else o.seed = std::stoull(a.seed_text, nullptr, 0);
  if (!linkem::parse_duration(a.spin, o.spin_ns)) throw CLI::ValidationError("--spin", a.spin);
  if (!linkem::parse_duration(a.stats_interval, o.stats_interval_ns) || o.stats_interval_ns <= 0)
    throw CLI::ValidationError("--stats-interval", a.stats_interval);
  if (!a.duration.empty() && !linkem::parse_duration(a.duration, o.duration_ns))
    throw CLI::ValidationError("--duration", a.duration);
  if (!a.schedule_file.empty()) {
    std::ifstream f(a.schedule_file);
    std::stringstream ss;
    ss << f.rdbuf();
    std::string err;
    if (!f || !linkem::parse_schedule(ss.str(), o.schedule, err))
      throw CLI::ValidationError("--schedule", a.schedule_file + ": " + err);
  }
  return o;
}

// Precise timing: 1 ns timer slack, optional SCHED_FIFO.
void set_timing(int fifo) {
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  if (fifo > 0) {
    sched_param sp{};
    sp.sched_priority = fifo;
    if (sched_setscheduler(0, SCHED_FIFO, &sp) != 0) std::perror("linkem: SCHED_FIFO");
  }
}

// Runs the emulator; returns the process exit code.
int run(const RunArgs& args, linkem::EmulatorOptions opts) {
  opts = to_options(args, opts);
  set_timing(args.fifo);
  if (!args.no_prepare) {
    for (const auto& i : {opts.if_a, opts.if_b}) {
      std::string w = linkem::prepare_interface(i);
      if (!w.empty()) std::fprintf(stderr, "linkem: warning: %s\n", w.c_str());
    }
  }
  linkem::Emulator em(opts);
  std::fprintf(stderr, "linkem: seed=%llu %s->%s a2b: %s\nlinkem: %s->%s b2a: %s\nlinkem: ready\n",
               static_cast<unsigned long long>(opts.seed), opts.if_a.c_str(), opts.if_b.c_str(),
               linkem::to_spec(opts.a2b).c_str(), opts.if_b.c_str(), opts.if_a.c_str(),
               linkem::to_spec(opts.b2a).c_str());
  em.run();
  std::cout << em.stats_json().dump(2) << std::endl;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"linkem: userspace link emulator (AF_PACKET between two interfaces)"};
  app.require_subcommand(1);
  RunArgs args;
  linkem::EmulatorOptions opts;
  auto* r = app.add_subcommand("run", "forward frames between --a and --b");
  r->add_option("--a", args.if_a, "interface A (direction a2b reads here)")->required();
  r->add_option("--b", args.if_b, "interface B (direction b2a reads here)")->required();
  r->add_option("--a2b", args.a2b, "settings of A->B, e.g. \"delay=10ms rate=5mbit limit=100p loss=bernoulli:0.05\"");
  r->add_option("--b2a", args.b2a, "settings of B->A");
  r->add_option("--both", args.both, "settings applied to both directions first");
  r->add_option("--seed", args.seed_text, "seed of every random draw (default: random, printed)");
  r->add_option("--control", opts.control_socket, "unix control socket path (stats/get/set)");
  r->add_option("--stats-file", opts.stats_file, "JSON stats rewritten every --stats-interval");
  r->add_option("--stats-interval", args.stats_interval, "stats file period (default 1s)");
  r->add_option("--schedule", args.schedule_file, "file of '<seconds> a2b|b2a|both key=value...' lines");
  r->add_option("--spin", args.spin, "busy-poll when the next deadline is closer than this (e.g. 50us)");
  r->add_option("--fifo", args.fifo, "SCHED_FIFO priority (0: normal scheduling)");
  r->add_option("--duration", args.duration, "stop after this long (default: until SIGINT/SIGTERM)");
  r->add_option("--batch", opts.batch, "frames per recvmmsg/sendmmsg (1-256)")->check(CLI::Range(1, 256));
  r->add_flag("--no-prepare", args.no_prepare, "leave IPv6/GRO settings of the interfaces alone");
  std::string sock, cmd;
  auto* c = app.add_subcommand("ctl", "send one command to a running linkem");
  c->add_option("--socket", sock, "control socket path")->required();
  c->add_option("command", cmd, "stats | get | set a2b|b2a|both key=value...")->required();
  CLI11_PARSE(app, argc, argv);
  try {
    if (c->parsed()) {
      std::cout << linkem::control_request(sock, cmd);
      return 0;
    }
    return run(args, opts);
  } catch (const CLI::Error& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "linkem: %s\n", e.what());
    return 1;
  }
}
