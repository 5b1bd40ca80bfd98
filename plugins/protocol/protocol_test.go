package protocol

import (
	"errors"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestBounded(t *testing.T) {
	for in, want := range map[string]string{
		"PIT 0 1":                  "PIT 0 1",
		strings.Repeat("x", 10):    "xxxx...",
		"ab\xffcd":                 "ab\uFFFDc...",
		"\xe2\x82\xac\xe2\x82\xac": "\u20ac\uFFFD...", // a cut inside a character
	} {
		n := 4
		if in == "PIT 0 1" {
			n = 100
		}
		if got := Bounded(in, n); got != want {
			t.Errorf("Bounded(%q, %d) = %q, want %q", in, n, got, want)
		}
	}
}

func TestValidText(t *testing.T) {
	for in, want := range map[string]string{"PIT 0 1": "", "PIT \xff": "not valid UTF-8", "PIT 0 1\x00": "NUL byte at offset 7"} {
		got := ValidText(in)
		if (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("ValidText(%q) = %q, want %q", in, got, want)
		}
	}
}

// gRPC's refusals of an oversized message, on either side, are bad
// replies; other errors, resource errors included, are not.
func TestAsBadReply(t *testing.T) {
	for _, msg := range []string{
		"grpc: received message larger than max (104857605 vs. 66560)",
		"grpc: trying to send message larger than max (104857605 vs. 16778240)",
	} {
		err := asBadReply(status.Error(codes.ResourceExhausted, msg), 65536)
		var be *BadReplyError
		if !errors.As(err, &be) || be.Size != 104857605 || be.Limit != 65536 {
			t.Errorf("%q: %v", msg, err)
		}
	}
	for _, err := range []error{
		status.Error(codes.ResourceExhausted, "too many streams"),
		status.Error(codes.Unavailable, "message larger than max (1 vs. 2)"),
		errors.New("plain"),
	} {
		if IsBadReply(asBadReply(err, 1)) {
			t.Errorf("%v taken for a bad reply", err)
		}
	}
}

// Refusal names both versions and the SDK version the agent needs.
func TestRefusal(t *testing.T) {
	msg := Refusal("Incompatible API version with plugin. Plugin version: 7, Client versions: [3]", 3)
	for _, want := range []string{"agent protocol version 7", "this arena protocol version 3", "SDK of protocol version 3", "sdk.ProtocolVersion == 3", "rebuild"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q lacks %q", msg, want)
		}
	}
	// A message go-plugin words differently still names what is needed.
	if msg := Refusal("something else", 1); !strings.Contains(msg, "another version") || !strings.Contains(msg, "SDK of protocol version 1") {
		t.Errorf("fallback: %q", msg)
	}
}
