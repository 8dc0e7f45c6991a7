//go:build tools

// Package tools pins the Go programs rampart builds from source: k6 (load)
// and Toxiproxy (chaos). `rampart setup` (src/tools/setup.ts) builds them into
// the per-user tools cache.
package tools

import (
	_ "github.com/Shopify/toxiproxy/v2/cmd/cli"
	_ "github.com/Shopify/toxiproxy/v2/cmd/server"
	_ "go.k6.io/k6/v2"
)
