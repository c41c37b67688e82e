#include "gateway/fudp_status.h"

#include <arpa/inet.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace ncgw::gateway {

using nlohmann::json;

namespace {

// An address of a key as text.
std::string address(const std::array<std::uint8_t, 16>& bytes, bool v6) {
  char text[INET6_ADDRSTRLEN] = {};
  inet_ntop(v6 ? AF_INET6 : AF_INET, bytes.data(), text, sizeof text);
  return text;
}

json flow_json(const fudp::Flow& f) {
  json j = {{"flow", fudp::to_string(f.key)},
            {"class", fudp::to_string(f.cls)},
            {"src", address(f.key.src, f.key.v6)},
            {"dst", address(f.key.dst, f.key.v6)},
            {"src_port", f.key.src_port},
            {"dst_port", f.key.dst_port},
            {"rate_bps", f.rate_Bps * 8},
            {"passed_bps", f.passed_Bps * 8},
            {"allocation_bps", nullptr},
            {"packets", f.packets},
            {"bytes", f.bytes},
            {"dropped_packets", f.dropped_packets},
            {"dropped_bytes", f.dropped_bytes}};
  if (std::isfinite(f.allocation_Bps)) j["allocation_bps"] = f.allocation_Bps * 8;
  return j;
}

json report_json(const fudp::PeriodReport& r) {
  return {{"periods", r.periods},
          {"period_s", r.seconds},
          {"tcp_flows", r.tcp_flows},
          {"udp_flows", r.udp_flows},
          {"other_flows", r.other_flows},
          {"thin_tcp_flows", r.thin_tcp_flows},
          {"tcp_total_bps", r.tcp_sample_Bps * 8},
          {"tcp_predicted_bps", r.prediction.w * 8},
          {"tcp_deviation_bps", r.prediction.d * 8},
          {"band_low_bps", r.band.low * 8},
          {"band_high_bps", r.band.high * 8},
          {"udp_average_bps", r.udp_average_Bps * 8},
          {"available_bps", r.available_Bps * 8},
          {"available_from_tunnel", r.tunnel_estimate},
          {"reallocated", r.reallocated},
          {"reallocations", r.reallocations}};
}

// "12.3 Mbit/s" style.
std::string rate(const json& bps) {
  if (bps.is_null()) return "-";
  return fmt::format("{:.3f} Mbit/s", bps.get<double>() / 1e6);
}

}  // namespace

json fudp_status(const fudp::Cfs& cfs) {
  std::vector<const fudp::Flow*> flows;
  cfs.table().for_each([&](const fudp::Flow& f) { flows.push_back(&f); });
  std::sort(flows.begin(), flows.end(), [](auto* a, auto* b) { return a->rate_Bps > b->rate_Bps; });
  json list = json::array();
  for (const auto* f : flows) list.push_back(flow_json(*f));
  const auto& c = cfs.counters();
  const auto& t = cfs.table().counters();
  return {{"period_ms", cfs.settings().period_ms},
          {"shape", cfs.settings().shape},
          {"last_period", report_json(cfs.report())},
          {"packets", c.packets},
          {"bytes", c.bytes},
          {"unparsed", c.unparsed},
          {"dropped_packets", c.dropped_packets},
          {"dropped_bytes", c.dropped_bytes},
          {"flows_tracked", cfs.table().size()},
          {"flow_table_size", cfs.table().capacity()},
          {"flows_inserted", t.inserted},
          {"flows_evicted", t.evicted},
          {"flows_expired", t.expired},
          {"flows", list}};
}

std::string render_fudp_table(const json& f, std::size_t top) {
  const json& r = f.at("last_period");
  std::string out = fmt::format(
      "  fudp: {} flows tracked (of {}), {} evicted, {} expired, {} packets dropped\n"
      "  fudp last period: {} tcp, {} udp; W {} D {}; band [{}, {}]; udp avg {}; BW {}{}{}\n",
      f.at("flows_tracked").get<std::uint64_t>(), f.at("flow_table_size").get<std::uint64_t>(),
      f.at("flows_evicted").get<std::uint64_t>(), f.at("flows_expired").get<std::uint64_t>(),
      f.at("dropped_packets").get<std::uint64_t>(), r.at("tcp_flows").get<std::uint64_t>(),
      r.at("udp_flows").get<std::uint64_t>(), rate(r.at("tcp_predicted_bps")), rate(r.at("tcp_deviation_bps")),
      rate(r.at("band_low_bps")), rate(r.at("band_high_bps")), rate(r.at("udp_average_bps")),
      rate(r.at("available_bps")), r.at("available_from_tunnel").get<bool>() ? " (eq. 3, tunnel estimate as cap)" : " (eq. 3)",
      r.at("reallocated").get<bool>() ? ", reallocated" : "");
  out += fmt::format("    {:<5} {:<52} {:>16} {:>16} {:>10}\n", "class", "flow", "rate", "allocation", "dropped");
  std::size_t shown = 0;
  for (const auto& fl : f.at("flows")) {
    if (shown++ == top) break;
    out += fmt::format("    {:<5} {:<52} {:>16} {:>16} {:>10}\n", fl.at("class").get<std::string>(),
                       fl.at("flow").get<std::string>(), rate(fl.at("rate_bps")), rate(fl.at("allocation_bps")),
                       fl.at("dropped_packets").get<std::uint64_t>());
  }
  return out;
}

}  // namespace ncgw::gateway
