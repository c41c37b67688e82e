// ncgw: the gateway daemon's entry point.
#include "gateway/cli.h"

int main(int argc, char** argv) { return ncgw::gateway::run_cli(argc, argv); }
