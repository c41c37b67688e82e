#include "gateway/status_json.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "config/loader.h"
#include "gateway/fudp_status.h"
#include "gateway/version.h"

namespace ncgw::gateway {

using nlohmann::json;

namespace {

json gateway_counters(const GatewayCounters& c) {
  return {{"tun_rx_packets", c.tun_rx_packets},   {"tun_rx_bytes", c.tun_rx_bytes},
          {"tun_tx_packets", c.tun_tx_packets},   {"tun_tx_bytes", c.tun_tx_bytes},
          {"tun_write_errors", c.tun_write_errors}, {"tun_read_errors", c.tun_read_errors},
          {"tun_gso_frames", c.tun_gso_frames},   {"tun_gso_segments", c.tun_gso_segments},
          {"tun_gro_frames", c.tun_gro_frames},   {"tun_gro_segments", c.tun_gro_segments},
          {"drop_bad_vnet_header", c.drop_bad_vnet_header},
          {"drop_no_route", c.drop_no_route},
          {"drop_not_ip", c.drop_not_ip},         {"udp_rx_datagrams", c.udp_rx_datagrams},
          {"udp_rx_bytes", c.udp_rx_bytes},       {"drop_unknown_sender", c.drop_unknown_sender},
          {"forwarded_packets", c.forwarded_packets}, {"ttl_expired", c.ttl_expired},
          {"icmp_time_exceeded_sent", c.icmp_time_exceeded_sent}, {"icmp_suppressed", c.icmp_suppressed},
          {"icmp_too_big_sent", c.icmp_too_big_sent}, {"handed_over", c.handed_over},
          {"drop_handoff", c.drop_handoff}};
}

json peer_status(const PeerStatusInput& p) {
  json core = json::object();
  for (const auto& e : p.core->stats()) core[e.name] = e.value;
  const PeerCounters& c = *p.counters;
  return {{"name", p.cfg->name},
          {"transport", std::string(config::to_string(p.cfg->transport))},
          {"security", std::string(config::to_string(p.cfg->security))},
          {"endpoint", p.address->to_string()},
          {"tun_packets_routed", c.tun_packets_routed},
          {"send_refused", c.send_refused},
          {"too_big", c.too_big},
          {"datagrams_in", c.datagrams_in},
          {"datagrams_out", c.datagrams_out},
          {"forwarded_from", c.forwarded_from},
          {"forwarded_to", c.forwarded_to},
          {"ttl_expired", c.ttl_expired},
          {"icmp_time_exceeded_sent", c.icmp_time_exceeded_sent},
          {"fudp_dropped", c.fudp_dropped},
          {"core", core},
          {"fudp", p.fudp ? fudp_status(*p.fudp) : json(nullptr)}};
}

// Formats a number without a trailing ".0" for whole values.
std::string number(const json& v) {
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (d == static_cast<double>(static_cast<long long>(d))) return std::to_string(static_cast<long long>(d));
    return fmt::format("{:.4g}", d);
  }
  return v.dump();
}

}  // namespace

std::string render_status_json(const StatusInput& in) {
  json doc = {{"gateway", in.cfg.name},
              {"version", kVersion},
              {"workers", in.workers},
              {"uptime_s", std::chrono::duration<double>(in.uptime).count()},
              {"counters", gateway_counters(in.counters)}};
  if (in.tun) {
    doc["tun"] = {{"name", in.tun->name()}, {"mtu", in.tun->mtu()}, {"ifindex", in.tun->ifindex()},
                  {"offloads", in.tun->offload_state()}, {"queues", in.tun->queues()}};
  }
  doc["ports"] = json::array();
  for (const auto& p : in.ports) {
    const auto& b = p.batches;
    const json port = {{"local", p.local}, {"send_errors", p.send_errors}, {"receive_errors", p.receive_errors},
                       {"truncated", p.truncated}, {"gso", p.gso}, {"gro", p.gro},
                       {"send_calls", b.send_calls}, {"datagrams_sent", b.datagrams_sent}, {"gso_sends", b.gso_sends},
                       {"receive_calls", b.receive_calls}, {"datagrams_received", b.datagrams_received},
                       {"gro_receives", b.gro_receives}};
    doc["ports"].push_back(port);
  }
  doc["peers"] = json::array();
  for (const auto& p : in.peers) doc["peers"].push_back(peer_status(p));
  return doc.dump();
}

std::string render_status_table(const std::string& json_text) {
  const json doc = json::parse(json_text);
  std::string out = fmt::format("gateway {} (ncgw {}), up {:.0f} s\n", doc.at("gateway").get<std::string>(),
                                doc.at("version").get<std::string>(), doc.at("uptime_s").get<double>());
  if (doc.contains("tun")) {
    out += fmt::format("tun {} mtu {} offloads {}\n", doc["tun"].at("name").get<std::string>(),
                       number(doc["tun"].at("mtu")), doc["tun"].value("offloads", std::string("off")));
  }
  out += "\ninterface counters\n";
  for (const auto& [k, v] : doc.at("counters").items()) out += fmt::format("  {:<24} {:>14}\n", k, number(v));
  for (const auto& p : doc.value("ports", json::array())) {
    out += fmt::format("\nudp port {}\n", p.at("local").get<std::string>());
    out += fmt::format("  {:<24} {:>14}\n", "send_errors", number(p.at("send_errors")));
    out += fmt::format("  {:<24} {:>14}\n", "receive_errors", number(p.at("receive_errors")));
    out += fmt::format("  {:<24} {:>14}\n", "truncated", number(p.value("truncated", json(0))));
    out += fmt::format("  {:<24} {:>14}\n", "gso / gro", fmt::format("{} / {}", p.value("gso", false) ? "on" : "off",
                                                                      p.value("gro", false) ? "on" : "off"));
    // Mean datagrams per system call each way: what batching (sendmmsg, GSO, GRO) achieves.
    const auto per_call = [&](const char* n, const char* d) {
      const double calls = p.value(n, 0.0);
      return calls > 0 ? fmt::format("{:.1f}", p.value(d, 0.0) / calls) : std::string("-");
    };
    out += fmt::format("  {:<24} {:>14}\n", "datagrams_per_send_call", per_call("send_calls", "datagrams_sent"));
    out += fmt::format("  {:<24} {:>14}\n", "datagrams_per_recv_call", per_call("receive_calls", "datagrams_received"));
  }
  for (const auto& p : doc.at("peers")) {
    out += fmt::format("\npeer {} via {} at {}\n", p.at("name").get<std::string>(),
                       p.at("transport").get<std::string>(), p.at("endpoint").get<std::string>());
    for (const auto& [k, v] : p.items()) {
      if (v.is_number()) out += fmt::format("  {:<24} {:>14}\n", k, number(v));
    }
    for (const auto& [k, v] : p.at("core").items()) out += fmt::format("  {:<24} {:>14}\n", k, number(v));
    if (p.contains("fudp") && p["fudp"].is_object()) out += render_fudp_table(p["fudp"]);
  }
  return out;
}

}  // namespace ncgw::gateway
