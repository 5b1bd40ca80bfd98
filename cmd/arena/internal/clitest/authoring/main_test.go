package authoring

import (
	"os"
	"testing"

	"arena/cmd/arena/internal/clitest"
)

func TestMain(m *testing.M) { os.Exit(clitest.Main(m)) }
