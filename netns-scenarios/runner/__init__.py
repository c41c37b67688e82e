"""Scenario runner for ncgw: turns a scenario YAML into namespaces, links (through linkem),
gateways, traffic, and results (JSON, markdown table, PNG plots). See docs/scenarios.md."""
