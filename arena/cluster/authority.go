package cluster

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Authority is a league's cluster credentials, kept in its directory
// (cluster/): a CA, the server's certificate signed by it, and the
// passwords of the coordinator and of every worker, revoked ones marked.
// The coordinator creates it on first start; `arena league token` adds
// and revokes workers while the coordinator runs (its server reloads the
// file).
type Authority struct {
	dir  string
	ca   *x509.Certificate
	cert tls.Certificate // the server's, with the CA in its chain
}

// Credentials is the accounts file.
type Credentials struct {
	URL         string   `json:"url"`   // the address workers are given
	Scope       string   `json:"scope"` // the league's streams and subjects
	Coordinator string   `json:"coordinator"`
	Workers     []Member `json:"workers"`
}

// Member is one worker's credential.
type Member struct {
	Name     string `json:"name"`
	Password string `json:"password"`
	Revoked  bool   `json:"revoked,omitempty"`
}

const accountsFile = "accounts.json"

var memberName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// OpenAuthority loads the credentials in dir, creating a CA, a server
// certificate (for hosts) and a coordinator password the first time.
func OpenAuthority(dir string, hosts []string) (*Authority, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("cluster credentials: %w", err)
	}
	a := &Authority{dir: dir}
	caPEM, keyPEM := filepath.Join(dir, "ca.pem"), filepath.Join(dir, "ca-key.pem")
	if _, err := os.Stat(caPEM); errors.Is(err, os.ErrNotExist) {
		if err := writeCA(caPEM, keyPEM); err != nil {
			return nil, err
		}
	}
	ca, caKey, err := loadCA(caPEM, keyPEM)
	if err != nil {
		return nil, err
	}
	a.ca = ca
	// The server certificate is made anew each start: the hosts it names
	// may change, the CA workers pin does not.
	if a.cert, err = serverCert(ca, caKey, hosts); err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(dir, accountsFile)); errors.Is(err, os.ErrNotExist) {
		if err := a.Save(&Credentials{Scope: DefaultScope, Coordinator: secret()}); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// Fingerprint is the CA certificate's sha256, which join tokens carry.
func (a *Authority) Fingerprint() string {
	sum := sha256.Sum256(a.ca.Raw)
	return hex.EncodeToString(sum[:])
}

// Load reads the accounts file.
func (a *Authority) Load() (*Credentials, error) {
	return LoadCredentials(a.dir)
}

// LoadCredentials reads the accounts file of a credentials directory.
func LoadCredentials(dir string) (*Credentials, error) {
	b, err := os.ReadFile(filepath.Join(dir, accountsFile))
	if err != nil {
		return nil, fmt.Errorf("cluster credentials: %w", err)
	}
	var c Credentials
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("cluster credentials %s: %w", filepath.Join(dir, accountsFile), err)
	}
	return &c, nil
}

// Save writes the accounts file atomically, readable by its owner only.
func (a *Authority) Save(c *Credentials) error { return SaveCredentials(a.dir, c) }

// SaveCredentials writes the accounts file of a credentials directory.
func SaveCredentials(dir string, c *Credentials) error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, accountsFile+".tmp")
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return fmt.Errorf("cluster credentials: %w", err)
	}
	return os.Rename(tmp, filepath.Join(dir, accountsFile))
}

// Issue returns the join endpoint of worker name, making its credential
// if it has none; a revoked name stays revoked.
func Issue(dir, fingerprint, name string) (Endpoint, error) {
	if !memberName.MatchString(name) {
		return Endpoint{}, fmt.Errorf("worker name %q: use letters, digits, - and _ (at most 64)", name)
	}
	c, err := LoadCredentials(dir)
	if err != nil {
		return Endpoint{}, err
	}
	var m *Member
	for i := range c.Workers {
		if c.Workers[i].Name == name {
			m = &c.Workers[i]
		}
	}
	if m != nil && m.Revoked {
		return Endpoint{}, fmt.Errorf("worker %s was revoked: issue a token under another name", name)
	}
	if m == nil {
		c.Workers = append(c.Workers, Member{Name: name, Password: secret()})
		m = &c.Workers[len(c.Workers)-1]
		if err := SaveCredentials(dir, c); err != nil {
			return Endpoint{}, err
		}
	}
	return Endpoint{URL: c.URL, User: m.Name, Password: m.Password, CAFingerprint: fingerprint, Scope: c.Scope}, nil
}

// Revoke marks a worker's credential revoked; a running server drops its
// connections when it reloads the file.
func Revoke(dir, name string) error {
	c, err := LoadCredentials(dir)
	if err != nil {
		return err
	}
	for i := range c.Workers {
		if c.Workers[i].Name == name {
			c.Workers[i].Revoked = true
			return SaveCredentials(dir, c)
		}
	}
	return fmt.Errorf("no worker %s in %s", name, filepath.Join(dir, accountsFile))
}

// Fingerprint reads the CA fingerprint of a credentials directory.
func Fingerprint(dir string) (string, error) {
	ca, _, err := loadCA(filepath.Join(dir, "ca.pem"), filepath.Join(dir, "ca-key.pem"))
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(ca.Raw)
	return hex.EncodeToString(sum[:]), nil
}

// users are the server's users: the coordinator with every right, each
// unrevoked worker with only its league's jobs and its own results.
func (c *Credentials) users() []*server.User {
	n := namesOf(c.Scope)
	out := []*server.User{{Username: "coordinator", Password: c.Coordinator}}
	for _, m := range c.Workers {
		if m.Revoked {
			continue
		}
		out = append(out, &server.User{Username: m.Name, Password: m.Password, Permissions: &server.Permissions{
			Publish: &server.SubjectPermission{Allow: append([]string{
				n.resultsSubject + "." + m.Name, n.lease + "." + m.Name, n.hello + "." + m.Name,
				"$JS.API.INFO",
				"$JS.API.CONSUMER.INFO." + n.jobsStream + "." + workerConsumer,
				"$JS.API.CONSUMER.MSG.NEXT." + n.jobsStream + "." + workerConsumer,
				"$JS.ACK." + n.jobsStream + "." + workerConsumer + ".>",
			}, objectReader(n.agents)...)},
			Subscribe: &server.SubjectPermission{Allow: []string{inboxPrefix(m.Name) + ".>"}},
		}})
	}
	return out
}

func secret() string {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on Linux
	}
	return hex.EncodeToString(b)
}

func writeCA(certPath, keyPath string) error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(), Subject: pkix.Name{CommonName: "arena league CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().AddDate(10, 0, 0),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return fmt.Errorf("cluster CA: %w", err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return err
	}
	if err := os.WriteFile(keyPath, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		return fmt.Errorf("cluster CA: %w", err)
	}
	return os.WriteFile(certPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644)
}

func loadCA(certPath, keyPath string) (*x509.Certificate, *ecdsa.PrivateKey, error) {
	cb, err := os.ReadFile(certPath)
	if err != nil {
		return nil, nil, fmt.Errorf("cluster CA: %w", err)
	}
	kb, err := os.ReadFile(keyPath)
	if err != nil {
		return nil, nil, fmt.Errorf("cluster CA key: %w", err)
	}
	cp, _ := pem.Decode(cb)
	kp, _ := pem.Decode(kb)
	if cp == nil || kp == nil {
		return nil, nil, fmt.Errorf("cluster CA %s: not PEM", certPath)
	}
	ca, err := x509.ParseCertificate(cp.Bytes)
	if err != nil {
		return nil, nil, fmt.Errorf("cluster CA %s: %w", certPath, err)
	}
	key, err := x509.ParseECPrivateKey(kp.Bytes)
	if err != nil {
		return nil, nil, fmt.Errorf("cluster CA key %s: %w", keyPath, err)
	}
	return ca, key, nil
}

func serverCert(ca *x509.Certificate, caKey *ecdsa.PrivateKey, hosts []string) (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(), Subject: pkix.Name{CommonName: "arena cluster server"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().AddDate(1, 0, 0),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else if h != "" {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("cluster server certificate: %w", err)
	}
	return tls.Certificate{Certificate: [][]byte{der, ca.Raw}, PrivateKey: key}, nil
}

func serial() *big.Int {
	n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	return n
}

// objectReader are the API subjects that read an object store (its
// stream's info, an object's metadata, an ordered consumer over its
// chunks and that consumer's flow control), and nothing that writes,
// purges or deletes it.
func objectReader(bucket string) []string {
	s := "OBJ_" + bucket
	return []string{
		"$JS.API.STREAM.INFO." + s, "$JS.API.STREAM.MSG.GET." + s, "$JS.API.DIRECT.GET." + s + ".>",
		"$JS.API.CONSUMER.CREATE." + s, "$JS.API.CONSUMER.CREATE." + s + ".>",
		"$JS.API.CONSUMER.INFO." + s + ".>", "$JS.API.CONSUMER.DELETE." + s + ".>",
		"$JS.FC." + s + ".>",
	}
}
