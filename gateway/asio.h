// Boost.Asio for the gateway. Boost 1.74's awaitable.hpp uses std::exchange without including
// <utility>, which breaks under g++ 12 in C++20: include it first, here, once.
#pragma once
#include <utility>

#include <boost/asio.hpp>
