#include "gateway/netlink.h"

#include <libmnl/libmnl.h>
#include <linux/fib_rules.h>
#include <linux/if.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <system_error>
#include <vector>

namespace ncgw::gateway {

namespace {

// Throws a system_error naming the failed request.
[[noreturn]] void fail(int err, const std::string& what) {
  throw std::system_error(err, std::generic_category(), "netlink " + what);
}

// Family and address bytes of a prefix for rtnetlink.
int family_of(const config::Prefix& p) { return p.address.v6 ? AF_INET6 : AF_INET; }
std::size_t addr_len(const config::Prefix& p) { return p.address.v6 ? 16 : 4; }

// Starts a link message (RTM_NEWLINK / RTM_DELLINK) for `ifindex` in `buf`.
nlmsghdr* put_link_message(std::vector<char>& buf, std::uint16_t type, int ifindex) {
  nlmsghdr* nlh = mnl_nlmsg_put_header(buf.data());
  nlh->nlmsg_type = type;
  auto* ifm = static_cast<ifinfomsg*>(mnl_nlmsg_put_extra_header(nlh, sizeof(ifinfomsg)));
  ifm->ifi_family = AF_UNSPEC;
  ifm->ifi_index = ifindex;
  return nlh;
}

// Callback that turns an NLMSG_ERROR into its errno.
int ack_callback(const nlmsghdr* /*nlh*/, void* /*data*/) { return MNL_CB_OK; }

}  // namespace

Netlink::Netlink() {
  socket_ = mnl_socket_open(NETLINK_ROUTE);
  if (!socket_) fail(errno, "open");
  if (mnl_socket_bind(socket_, 0, MNL_SOCKET_AUTOPID) < 0) {
    const int err = errno;
    mnl_socket_close(socket_);
    fail(err, "bind");
  }
  port_id_ = mnl_socket_get_portid(socket_);
}

Netlink::~Netlink() {
  if (socket_) mnl_socket_close(socket_);
}

int Netlink::transact(void* msg) {
  auto* nlh = static_cast<nlmsghdr*>(msg);
  nlh->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
  nlh->nlmsg_seq = ++seq_;
  if (mnl_socket_sendto(socket_, nlh, nlh->nlmsg_len) < 0) return errno;
  std::vector<char> buf(MNL_SOCKET_BUFFER_SIZE);
  const ssize_t n = mnl_socket_recvfrom(socket_, buf.data(), buf.size());
  if (n < 0) return errno;
  if (mnl_cb_run(buf.data(), n, seq_, port_id_, ack_callback, nullptr) < 0) return errno;
  return 0;
}

void Netlink::set_link_up(int ifindex, std::uint32_t mtu) {
  std::vector<char> buf(MNL_SOCKET_BUFFER_SIZE);
  nlmsghdr* nlh = put_link_message(buf, RTM_NEWLINK, ifindex);
  auto* ifm = static_cast<ifinfomsg*>(mnl_nlmsg_get_payload(nlh));
  ifm->ifi_flags = IFF_UP;
  ifm->ifi_change = IFF_UP;
  mnl_attr_put_u32(nlh, IFLA_MTU, mtu);
  if (int err = transact(nlh)) fail(err, "set link up / mtu " + std::to_string(mtu));
}

void Netlink::add_address(int ifindex, const config::Prefix& address) {
  std::vector<char> buf(MNL_SOCKET_BUFFER_SIZE);
  nlmsghdr* nlh = mnl_nlmsg_put_header(buf.data());
  nlh->nlmsg_type = RTM_NEWADDR;
  nlh->nlmsg_flags = NLM_F_CREATE | NLM_F_REPLACE;
  auto* ifa = static_cast<ifaddrmsg*>(mnl_nlmsg_put_extra_header(nlh, sizeof(ifaddrmsg)));
  ifa->ifa_family = family_of(address);
  ifa->ifa_prefixlen = address.length;
  ifa->ifa_scope = RT_SCOPE_UNIVERSE;
  ifa->ifa_index = ifindex;
  mnl_attr_put(nlh, IFA_LOCAL, addr_len(address), address.address.bytes.data());
  mnl_attr_put(nlh, IFA_ADDRESS, addr_len(address), address.address.bytes.data());
  if (int err = transact(nlh); err && err != EEXIST) fail(err, "add address " + config::to_string(address));
}

int Netlink::route_request(int ifindex, const config::Prefix& prefix, std::uint32_t table,
                           std::uint16_t type, std::uint16_t flags) {
  std::vector<char> buf(MNL_SOCKET_BUFFER_SIZE);
  nlmsghdr* nlh = mnl_nlmsg_put_header(buf.data());
  nlh->nlmsg_type = type;
  nlh->nlmsg_flags = flags;
  auto* rtm = static_cast<rtmsg*>(mnl_nlmsg_put_extra_header(nlh, sizeof(rtmsg)));
  rtm->rtm_family = family_of(prefix);
  rtm->rtm_dst_len = prefix.length;
  rtm->rtm_table = static_cast<std::uint8_t>(table < 256 ? table : RT_TABLE_UNSPEC);
  rtm->rtm_protocol = RTPROT_STATIC;
  rtm->rtm_scope = RT_SCOPE_LINK;
  rtm->rtm_type = RTN_UNICAST;
  const config::Prefix net = config::network_of(prefix);
  mnl_attr_put(nlh, RTA_DST, addr_len(net), net.address.bytes.data());
  mnl_attr_put_u32(nlh, RTA_OIF, static_cast<std::uint32_t>(ifindex));
  mnl_attr_put_u32(nlh, RTA_TABLE, table);
  return transact(nlh);
}

void Netlink::add_route(int ifindex, const config::Prefix& prefix, std::uint32_t table) {
  if (int err = route_request(ifindex, prefix, table, RTM_NEWROUTE, NLM_F_CREATE | NLM_F_REPLACE)) {
    fail(err, "add route " + config::to_string(prefix) + " table " + std::to_string(table));
  }
}

bool Netlink::delete_route(int ifindex, const config::Prefix& prefix, std::uint32_t table) {
  return route_request(ifindex, prefix, table, RTM_DELROUTE, 0) == 0;
}

int Netlink::rule_request(int family, const std::string& iif, std::uint32_t table, std::uint32_t priority,
                          std::uint16_t type, std::uint16_t flags) {
  std::vector<char> buf(MNL_SOCKET_BUFFER_SIZE);
  nlmsghdr* nlh = mnl_nlmsg_put_header(buf.data());
  nlh->nlmsg_type = type;
  nlh->nlmsg_flags = flags;
  auto* frh = static_cast<fib_rule_hdr*>(mnl_nlmsg_put_extra_header(nlh, sizeof(fib_rule_hdr)));
  frh->family = static_cast<std::uint8_t>(family);
  frh->table = static_cast<std::uint8_t>(table < 256 ? table : RT_TABLE_UNSPEC);
  frh->action = FR_ACT_TO_TBL;
  mnl_attr_put_strz(nlh, FRA_IIFNAME, iif.c_str());
  mnl_attr_put_u32(nlh, FRA_PRIORITY, priority);
  mnl_attr_put_u32(nlh, FRA_TABLE, table);
  return transact(nlh);
}

bool Netlink::add_rule(int family, const std::string& iif, std::uint32_t table, std::uint32_t priority) {
  // NLM_F_EXCL: the kernel answers EEXIST for an identical rule instead of adding a duplicate.
  const int err = rule_request(family, iif, table, priority, RTM_NEWRULE, NLM_F_CREATE | NLM_F_EXCL);
  if (err && err != EEXIST) {
    fail(err, "add rule iif " + iif + " lookup " + std::to_string(table) + " pref " + std::to_string(priority));
  }
  return err == 0;
}

bool Netlink::delete_rule(int family, const std::string& iif, std::uint32_t table, std::uint32_t priority) {
  return rule_request(family, iif, table, priority, RTM_DELRULE, 0) == 0;
}

}  // namespace ncgw::gateway
