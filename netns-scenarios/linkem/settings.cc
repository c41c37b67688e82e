// Text form of DirectionSettings: parser and printer.
#include "netns-scenarios/linkem/settings.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace linkem {
namespace {

// Lower-cases ASCII text.
std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Splits "number suffix" ("1.5ms" -> 1.5, "ms"); false when no number leads.
bool split_number(const std::string& text, double& value, std::string& suffix) {
  if (text.empty()) return false;
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || !std::isfinite(value) || value < 0) return false;
  suffix = lower(std::string(end));
  return true;
}

// Parses a probability in [0, 1].
bool parse_prob(const std::string& text, double& p) {
  std::string rest;
  if (!split_number(text, p, rest)) return false;
  if (rest == "%") p /= 100.0;
  else if (!rest.empty()) return false;
  return p >= 0.0 && p <= 1.0;
}

// Parses an unsigned integer.
bool parse_u64(const std::string& text, std::uint64_t& v) {
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) return false;
  char* end = nullptr;
  v = std::strtoull(text.c_str(), &end, 10);
  return *end == '\0';
}

// Parses "gilbert:p=..,r=..,good=..,bad=.." parameters.
bool parse_gilbert(const std::string& args, LossSettings& l) {
  l = LossSettings{};
  l.kind = LossKind::gilbert;
  std::stringstream ss(args);
  std::string item;
  bool have_p = false, have_r = false;
  while (std::getline(ss, item, ',')) {
    auto eq = item.find('=');
    if (eq == std::string::npos) return false;
    std::string k = lower(item.substr(0, eq)), v = item.substr(eq + 1);
    double* dst = k == "p" ? &l.p : k == "r" ? &l.r : k == "good" ? &l.loss_good
                 : k == "bad" ? &l.loss_bad : nullptr;
    if (!dst || !parse_prob(v, *dst)) return false;
    have_p |= k == "p";
    have_r |= k == "r";
  }
  return have_p && have_r;
}

// Parses "pattern:10-14,20@100" (ranges of 1-based ordinals, optional period).
bool parse_pattern(const std::string& args, LossSettings& l) {
  l = LossSettings{};
  l.kind = LossKind::pattern;
  std::string body = args;
  auto at = body.find('@');
  if (at != std::string::npos) {
    if (!parse_u64(body.substr(at + 1), l.period) || l.period == 0) return false;
    body = body.substr(0, at);
  }
  std::stringstream ss(body);
  std::string item;
  while (std::getline(ss, item, ',')) {
    FrameRange fr;
    auto dash = item.find('-');
    if (dash == std::string::npos) {
      if (!parse_u64(item, fr.first)) return false;
      fr.last = fr.first;
    } else if (!parse_u64(item.substr(0, dash), fr.first) ||
               !parse_u64(item.substr(dash + 1), fr.last)) {
      return false;
    }
    if (fr.first == 0 || fr.last < fr.first) return false;
    l.ranges.push_back(fr);
  }
  return !l.ranges.empty();
}

// Parses the value of the loss= key.
bool parse_loss(const std::string& v, LossSettings& l) {
  auto colon = v.find(':');
  std::string kind = lower(v.substr(0, colon));
  std::string args = colon == std::string::npos ? "" : v.substr(colon + 1);
  if (kind == "none" || kind == "0") {
    l = LossSettings{};
    return true;
  }
  if (kind == "bernoulli") {
    l = LossSettings{};
    l.kind = LossKind::bernoulli;
    return parse_prob(args, l.rate);
  }
  if (kind == "gilbert") return parse_gilbert(args, l);
  if (kind == "pattern") return parse_pattern(args, l);
  LossSettings b;  // a bare probability means Bernoulli
  b.kind = LossKind::bernoulli;
  if (!parse_prob(v, b.rate)) return false;
  l = b;
  return true;
}

// Parses a queue limit: "100p"/"100" packets or "150000b" bytes.
bool parse_limit(const std::string& v, DirectionSettings& s) {
  std::string t = lower(v);
  if (!t.empty() && t.back() == 'b') return parse_u64(t.substr(0, t.size() - 1), s.limit_bytes);
  if (!t.empty() && t.back() == 'p') t.pop_back();
  return parse_u64(t, s.limit_packets);
}

// Parses a boolean (1/0/true/false/on/off).
bool parse_bool(const std::string& v, bool& b) {
  std::string t = lower(v);
  if (t == "1" || t == "true" || t == "on" || t == "yes") b = true;
  else if (t == "0" || t == "false" || t == "off" || t == "no") b = false;
  else return false;
  return true;
}

// Applies one key=value pair.
bool apply_one(const std::string& key, const std::string& v, DirectionSettings& s) {
  if (key == "delay") return parse_duration(v, s.delay_ns);
  if (key == "jitter") return parse_duration(v, s.jitter_ns);
  if (key == "jitter_dist") {
    if (v == "uniform") s.jitter_dist = JitterDist::uniform;
    else if (v == "normal") s.jitter_dist = JitterDist::normal;
    else return false;
    return true;
  }
  if (key == "jitter_reorders") return parse_bool(v, s.jitter_reorders);
  if (key == "rate") return parse_rate(v, s.rate_bps);
  if (key == "overhead") {
    std::uint64_t o = 0;
    if (!parse_u64(v, o) || o > 1000) return false;
    s.overhead_bytes = static_cast<std::uint32_t>(o);
    return true;
  }
  if (key == "limit") return parse_limit(v, s);
  if (key == "limit_bytes") return parse_u64(v, s.limit_bytes);
  if (key == "loss") return parse_loss(v, s.loss);
  if (key == "loss_ip_only") return parse_bool(v, s.loss_ip_only);
  if (key == "duplicate") return parse_prob(v, s.duplicate);
  if (key == "reorder") return parse_prob(v, s.reorder);
  return false;
}

// Formats a double without trailing noise.
std::string num(double v) {
  std::ostringstream o;
  o.precision(12);
  o << v;
  return o.str();
}

}  // namespace

bool parse_duration(const std::string& text, std::int64_t& ns) {
  double v = 0;
  std::string unit;
  if (!split_number(text, v, unit)) return false;
  double mult = unit == "s" ? 1e9 : unit == "ms" ? 1e6 : unit == "us" ? 1e3
              : (unit == "ns" || (unit.empty() && v == 0)) ? 1.0 : -1.0;
  if (mult < 0) return false;
  ns = static_cast<std::int64_t>(std::llround(v * mult));
  return true;
}

bool parse_rate(const std::string& text, std::uint64_t& bps) {
  double v = 0;
  std::string unit;
  if (!split_number(text, v, unit)) return false;
  double mult = (unit.empty() || unit == "bit" || unit == "bps") ? 1.0
              : (unit == "kbit" || unit == "k") ? 1e3
              : (unit == "mbit" || unit == "m") ? 1e6
              : (unit == "gbit" || unit == "g") ? 1e9 : -1.0;
  if (mult < 0) return false;
  bps = static_cast<std::uint64_t>(std::llround(v * mult));
  return true;
}

std::string apply_spec(const std::string& spec, DirectionSettings& s) {
  DirectionSettings next = s;
  std::stringstream ss(spec);
  std::string tok;
  while (ss >> tok) {
    auto eq = tok.find('=');
    if (eq == std::string::npos || eq == 0) return "expected key=value, got '" + tok + "'";
    if (!apply_one(lower(tok.substr(0, eq)), tok.substr(eq + 1), next))
      return "bad setting '" + tok + "'";
  }
  s = next;
  return {};
}

std::string to_spec(const DirectionSettings& s) {
  std::ostringstream o;
  o << "delay=" << s.delay_ns << "ns jitter=" << s.jitter_ns << "ns jitter_dist="
    << (s.jitter_dist == JitterDist::uniform ? "uniform" : "normal")
    << " jitter_reorders=" << (s.jitter_reorders ? 1 : 0) << " rate=" << s.rate_bps
    << " overhead=" << s.overhead_bytes << " limit=" << s.limit_packets << "p"
    << " limit_bytes=" << s.limit_bytes << " loss=";
  const auto& l = s.loss;
  switch (l.kind) {
    case LossKind::none: o << "none"; break;
    case LossKind::bernoulli: o << "bernoulli:" << num(l.rate); break;
    case LossKind::gilbert:
      o << "gilbert:p=" << num(l.p) << ",r=" << num(l.r) << ",good=" << num(l.loss_good)
        << ",bad=" << num(l.loss_bad);
      break;
    case LossKind::pattern: {
      o << "pattern:";
      for (std::size_t i = 0; i < l.ranges.size(); ++i)
        o << (i ? "," : "") << l.ranges[i].first << "-" << l.ranges[i].last;
      if (l.period) o << "@" << l.period;
      break;
    }
  }
  o << " loss_ip_only=" << (s.loss_ip_only ? 1 : 0) << " duplicate=" << num(s.duplicate)
    << " reorder=" << num(s.reorder);
  return o.str();
}

}  // namespace linkem
