package cluster

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
)

// DefaultScope names the streams and subjects of a cluster when nothing
// else does; leagues sharing one external server need scopes of their own.
const DefaultScope = "arena"

// Endpoint is where a coordinator or worker connects and how it proves who
// it is. A join token fills User, Password, CAFingerprint and Scope; an
// external server is reached with a NATS .creds file and a CA file.
type Endpoint struct {
	URL           string
	User          string // user name, also the worker's subject token
	Password      string
	CAFingerprint string // sha256 (hex) of the CA certificate the server's chain must hold
	CredsFile     string // a NATS .creds file (external servers)
	CAFile        string // PEM CA certificates to trust (external servers, --tlscacert)
	Scope         string // the league's streams and subjects (default DefaultScope)
}

func (e Endpoint) scope() string {
	if e.Scope != "" {
		return e.Scope
	}
	return DefaultScope
}

// ident is the subject token that names this client: its user name, or
// "anonymous" on a server without users.
func (e Endpoint) ident() string {
	if e.User != "" {
		return e.User
	}
	return "anonymous"
}

// names are the streams and subjects of one scope.
type names struct {
	jobsStream, jobsSubject       string
	resultsStream, resultsSubject string // resultsSubject ends in the worker's user
	lease, hello                  string // request subjects, ending in the worker's user
	agents                        string // the object store of agents, named by content hash
}

func namesOf(scope string) names {
	return names{
		jobsStream: "ARENA_JOBS_" + scope, jobsSubject: "arena." + scope + ".jobs",
		resultsStream: "ARENA_RESULTS_" + scope, resultsSubject: "arena." + scope + ".results",
		lease: "arena." + scope + ".lease", hello: "arena." + scope + ".hello",
		agents: "ARENA_AGENTS_" + scope,
	}
}

// inboxPrefix keeps each user's replies under subjects only it may read.
func inboxPrefix(user string) string { return "_INBOX_" + user }

// options are the NATS connection options of an endpoint.
func (e Endpoint) options(name string) ([]nats.Option, error) {
	opts := []nats.Option{nats.Name(name), nats.MaxReconnects(-1), nats.ReconnectWait(250 * time.Millisecond)}
	if e.User != "" {
		opts = append(opts, nats.UserInfo(e.User, e.Password), nats.CustomInboxPrefix(inboxPrefix(e.User)))
	}
	if e.CredsFile != "" {
		opts = append(opts, nats.UserCredentials(e.CredsFile))
	}
	if e.CAFile != "" {
		opts = append(opts, nats.RootCAs(e.CAFile))
	}
	if e.CAFingerprint != "" {
		opts = append(opts, nats.Secure(pinnedTLS(e.CAFingerprint)))
	}
	return opts, nil
}

// pinnedTLS trusts a server whose chain holds the CA with the given
// fingerprint and whose certificate that CA signed: the token carries the
// fingerprint, so a worker needs no file from the coordinator.
func pinnedTLS(fingerprint string) *tls.Config {
	want, _ := hex.DecodeString(fingerprint)
	return &tls.Config{
		MinVersion: tls.VersionTLS12,
		// The chain is checked below against the pinned CA instead of the
		// system's roots; host names are not checked (lab machines are
		// reached by address), the pin is.
		InsecureSkipVerify: true,
		VerifyConnection: func(cs tls.ConnectionState) error {
			if len(cs.PeerCertificates) == 0 {
				return errors.New("cluster server sent no certificate")
			}
			for _, c := range cs.PeerCertificates[1:] {
				sum := sha256.Sum256(c.Raw)
				if !bytes.Equal(sum[:], want) {
					continue
				}
				roots := x509.NewCertPool()
				roots.AddCert(c)
				_, err := cs.PeerCertificates[0].Verify(x509.VerifyOptions{Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}})
				if err != nil {
					return fmt.Errorf("cluster server certificate not signed by the pinned CA: %w", err)
				}
				return nil
			}
			return fmt.Errorf("cluster server's certificate chain does not hold the CA %s the join token names", fingerprint)
		},
	}
}

// dial connects an endpoint.
func dial(ctx context.Context, e Endpoint, name string) (*nats.Conn, error) {
	opts, err := e.options(name)
	if err != nil {
		return nil, err
	}
	nc, err := nats.Connect(e.URL, opts...)
	if err != nil {
		return nil, fmt.Errorf("cluster %s: %w", e.URL, err)
	}
	return nc, nil
}

// tokenPrefix marks a join token and its format's version.
const tokenPrefix = "arena-join-1."

type tokenBody struct {
	URL   string `json:"url"`
	CA    string `json:"ca"`
	User  string `json:"user"`
	Pass  string `json:"pass"`
	Scope string `json:"scope"`
}

// Token encodes an endpoint as one string for `arena worker --join`.
func (e Endpoint) Token() string {
	b, _ := json.Marshal(tokenBody{URL: e.URL, CA: e.CAFingerprint, User: e.User, Pass: e.Password, Scope: e.Scope})
	return tokenPrefix + base64.RawURLEncoding.EncodeToString(b)
}

// ParseToken decodes a join token.
func ParseToken(s string) (Endpoint, error) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(s), tokenPrefix)
	if !ok {
		return Endpoint{}, fmt.Errorf("join token: does not start with %q (print one with `arena league token`)", tokenPrefix)
	}
	b, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil {
		return Endpoint{}, fmt.Errorf("join token: %w", err)
	}
	var t tokenBody
	if err := json.Unmarshal(b, &t); err != nil {
		return Endpoint{}, fmt.Errorf("join token: %w", err)
	}
	if t.URL == "" || t.CA == "" || t.User == "" || t.Pass == "" {
		return Endpoint{}, errors.New("join token: lacks the address, the CA fingerprint or the credential")
	}
	return Endpoint{URL: t.URL, CAFingerprint: t.CA, User: t.User, Password: t.Pass, Scope: t.Scope}, nil
}
