// Sender: the figures `ncgw status` shows for one direction.
#include <cmath>

#include "transports/tcpnc/sender.h"

namespace ncgw::tcpnc {

void Sender::stats(std::vector<transport::StatEntry>& out, TimePoint now) const {
  auto add = [&out](const char* name, double v) { out.push_back({name, v}); };
  add("cwnd", cc_->cwnd());
  add("pacing_rate_pps", cc_->pacing_rate());
  add("path_rate_pps", cc_->path_rate());
  cc_->stats(out);
  add("srtt_ms", std::chrono::duration<double, std::milli>(rtt_.srtt()).count());
  add("min_rtt_ms", std::chrono::duration<double, std::milli>(rtt_.min_rtt()).count());
  add("rto_ms", std::chrono::duration<double, std::milli>(rtt_.rto()).count());
  plan_.stats(out, now, path());
  add("in_flight", in_flight_);
  add("sending_buffer_used", static_cast<double>(buffered()));
  add("waiting_packets", static_cast<double>(queue_.size()));
  add("sending_buffer_size", static_cast<double>(sending_buffer_));
  add("combinations_sent", static_cast<double>(ctr_.combinations_sent));
  add("sources_sent", static_cast<double>(ctr_.sources_sent));
  add("repairs_sent", static_cast<double>(ctr_.repairs_sent));
  add("retransmissions", static_cast<double>(ctr_.retransmissions));
  add("declared_lost", static_cast<double>(ctr_.declared_lost));
  add("overshoot_losses_excluded", static_cast<double>(overshoot_.excluded()));
  add("overshoot_losses_overflow", static_cast<double>(overshoot_.overflow()));
  add("entrance_drops", static_cast<double>(ctr_.entrance_drops));
  add("aqm_drops", static_cast<double>(ctr_.aqm_drops));
  add("entrance_wait_ms_total", static_cast<double>(ctr_.entrance_wait_ns) / 1e6);
  add("entrance_long_waits", static_cast<double>(ctr_.entrance_long_waits));
  add("sparse_accepted", static_cast<double>(ctr_.sparse_accepted));
  add("short_queue_periods", static_cast<double>(short_queue_periods_));
  add("header_compression", compress_ ? 1 : 0);
  add("headers_compressed", static_cast<double>(compressor_.counters().compressed));
  add("headers_full", static_cast<double>(compressor_.counters().full));
  add("header_bytes_saved",
      static_cast<double>(compressor_.counters().bytes_saved) - static_cast<double>(kHcMaxPrefix * compressor_.counters().full));
  add("form_pieces", pieces_ ? 1 : 0);
  add("forms_split", static_cast<double>(splitter_.forms_split()));
  add("form_pieces_sent", static_cast<double>(splitter_.pieces()));
  add("mss_clamped", static_cast<double>(ctr_.mss_clamped));
  add("max_packet", static_cast<double>(max_packet_));
  add("idle_cws", static_cast<double>(ctr_.idle_cws));
  add("aged_cws", static_cast<double>(ctr_.aged_cws));
  add("idle_extra_repairs", static_cast<double>(ctr_.idle_extra_repairs));
  add("accepted", static_cast<double>(ctr_.accepted));
  add("congestion_events", static_cast<double>(cc_->events()));
  add("congestion_cws", static_cast<double>(ctr_.congestion_cws));
  add("rto_count", static_cast<double>(ctr_.rto_count));
  add("probes", static_cast<double>(ctr_.probes));
  add("adaptations", static_cast<double>(ctr_.adaptations));
  add("session_drops", static_cast<double>(ctr_.session_drops));
}

}  // namespace ncgw::tcpnc
