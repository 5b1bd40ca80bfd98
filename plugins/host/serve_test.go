package host_test

import (
	"os"

	"github.com/hashicorp/go-plugin"
)

func servePlugin(cfg *plugin.ServeConfig) {
	plugin.Serve(cfg)
	os.Exit(0)
}
