package leaguefile

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strings"
)

// FileHash is the content hash recorded for an agent's script or binary
// ("sha256:HEX"), also for checking a copy on another machine.
func FileHash(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hash %s: %w", path, err)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// ShortHash is a content hash as messages show it: its first 12 hex
// digits, "none" when there is none.
func ShortHash(h string) string {
	h = strings.TrimPrefix(h, "sha256:")
	if h == "" {
		return "none"
	}
	if len(h) > 12 {
		h = h[:12]
	}
	return h
}
