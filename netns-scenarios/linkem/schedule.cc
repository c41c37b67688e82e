// Schedule file parser.
#include "netns-scenarios/linkem/schedule.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "netns-scenarios/linkem/settings.h"

namespace linkem {

bool parse_target(const std::string& word, Target& t) {
  if (word == "a2b") t = Target::a2b;
  else if (word == "b2a") t = Target::b2a;
  else if (word == "both") t = Target::both;
  else return false;
  return true;
}

bool parse_schedule(const std::string& text, std::vector<ScheduledChange>& out, std::string& error) {
  std::istringstream in(text);
  std::string line;
  int n = 0;
  out.clear();
  while (std::getline(in, line)) {
    ++n;
    auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    std::istringstream ls(line);
    std::string when, target;
    if (!(ls >> when)) continue;
    ScheduledChange c;
    char* end = nullptr;
    double secs = std::strtod(when.c_str(), &end);
    if (*end != '\0' || !std::isfinite(secs) || secs < 0) {
      error = "line " + std::to_string(n) + ": bad time '" + when + "'";
      return false;
    }
    c.at_ns = std::llround(secs * 1e9);
    if (!(ls >> target) || !parse_target(target, c.target)) {
      error = "line " + std::to_string(n) + ": expected a2b, b2a or both";
      return false;
    }
    std::getline(ls, c.spec);
    DirectionSettings probe;
    std::string e = apply_spec(c.spec, probe);
    if (!e.empty()) {
      error = "line " + std::to_string(n) + ": " + e;
      return false;
    }
    out.push_back(c);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.at_ns < b.at_ns; });
  return true;
}

}  // namespace linkem
