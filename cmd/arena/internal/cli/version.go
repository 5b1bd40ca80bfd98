package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"arena/arena/buildinfo"
)

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the arena build: module version, VCS revision, its time, modified flag, Go version",
		Long: `Print the build of this arena binary as the Go toolchain stamped it: the module
version, the VCS revision with its commit time and whether the work tree was
modified, and the Go version. Every game record carries the short form
("arena" field, docs/records.md) and the standings name the builds that
refereed their games. arena --version prints the same.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprint(cmd.OutOrStdout(), buildinfo.Current())
			return err
		},
	}
}
