package protocol

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"os"
	"time"
)

// The gRPC channel between the arena and an agent is mutually
// authenticated TLS, as go-plugin's AutoMTLS made it, without AutoMTLS's
// cost: AutoMTLS generates a P-521 key on both sides at every start, most
// of an agent's start-up. Here the arena makes its own key once per
// launcher (Credentials) and, per agent process, a P-256 key and
// certificate for the agent (tens of microseconds), handed over in the
// agent's environment (TLSEnv). Each side trusts exactly the other's
// certificate, as with AutoMTLS.

// channelCurves is the channel's key exchange: X25519 alone. Go's default
// adds a post-quantum key (ML-KEM), which guards traffic recorded today
// against a quantum computer later; this channel is a Unix socket between
// two processes of one machine, which no one records, and the larger
// exchange made a start's first handshake 3.2 ms instead of 1.9 ms (both
// sides in one process, go1.26, 2-core machine). An agent built before
// this still agrees: X25519 is in every Go default.
func channelCurves() []tls.CurveID { return []tls.CurveID{tls.X25519} }

// TLSEnv names the environment variable that carries the agent's
// certificate and key and the arena's certificate, as PEM blocks.
const TLSEnv = "ARENA_TLS"

// certLifetime bounds a certificate's validity; a league's kept process
// may live for hours.
const certLifetime = 30 * 24 * time.Hour

// Credentials is the arena's side of the channel: its key and
// certificate, made once and used for every agent it starts.
type Credentials struct {
	cert    tls.Certificate
	certPEM []byte
}

// NewCredentials makes the arena's key and self-signed certificate.
func NewCredentials() (*Credentials, error) {
	certPEM, keyPEM, err := selfSigned("arena")
	if err != nil {
		return nil, fmt.Errorf("arena TLS credentials: %w", err)
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, fmt.Errorf("arena TLS credentials: %w", err)
	}
	return &Credentials{cert: cert, certPEM: certPEM}, nil
}

// ForAgent makes one agent process's key and certificate. It returns the
// value of TLSEnv to give the agent and the arena's client configuration,
// which trusts only that agent's certificate.
func (c *Credentials) ForAgent() (env string, client *tls.Config, err error) {
	certPEM, keyPEM, err := selfSigned("agent")
	if err != nil {
		return "", nil, fmt.Errorf("agent TLS credentials: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(certPEM) {
		return "", nil, errors.New("agent TLS credentials: certificate does not parse")
	}
	client = &tls.Config{
		Certificates:     []tls.Certificate{c.cert},
		RootCAs:          pool,
		ServerName:       "localhost",
		MinVersion:       tls.VersionTLS13,
		CurvePreferences: channelCurves(),
	}
	bundle := append(append(append([]byte{}, certPEM...), keyPEM...), c.certPEM...)
	return string(bundle), client, nil
}

// ArenaCertPEM is the arena's certificate. Given to an agent as go-plugin's
// PLUGIN_CLIENT_CERT, it lets an agent built without ServerTLS still
// authenticate the arena through AutoMTLS (paying for its own key).
func (c *Credentials) ArenaCertPEM() []byte { return c.certPEM }

// ServerTLS is the agent's side (go-plugin's ServeConfig.TLSProvider): the
// server configuration from TLSEnv, requiring the arena's certificate. It
// removes the variable, so nothing the agent starts inherits the key. It
// returns nil without the variable: go-plugin then falls back to AutoMTLS.
func ServerTLS() (*tls.Config, error) {
	bundle, ok := os.LookupEnv(TLSEnv)
	if !ok {
		return nil, nil
	}
	os.Unsetenv(TLSEnv)
	var blocks [3]*pem.Block
	rest := []byte(bundle)
	for i := range blocks {
		blocks[i], rest = pem.Decode(rest)
		if blocks[i] == nil {
			return nil, fmt.Errorf("%s: PEM block %d of 3 missing", TLSEnv, i+1)
		}
	}
	cert, err := tls.X509KeyPair(pem.EncodeToMemory(blocks[0]), pem.EncodeToMemory(blocks[1]))
	if err != nil {
		return nil, fmt.Errorf("%s: agent key pair: %w", TLSEnv, err)
	}
	arena, err := x509.ParseCertificate(blocks[2].Bytes)
	if err != nil {
		return nil, fmt.Errorf("%s: arena certificate: %w", TLSEnv, err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(arena)
	return &tls.Config{
		Certificates:     []tls.Certificate{cert},
		ClientAuth:       tls.RequireAndVerifyClientCert,
		ClientCAs:        pool,
		MinVersion:       tls.VersionTLS13,
		CurvePreferences: channelCurves(),
	}, nil
}

// selfSigned makes a P-256 key and a certificate for "localhost" signed by
// it, usable by a client and a server, as PEM.
func selfSigned(org string) (certPEM, keyPEM []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		return nil, nil, err
	}
	now := time.Now()
	template := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "localhost", Organization: []string{org}},
		DNSNames:              []string{"localhost"},
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth, x509.ExtKeyUsageServerAuth},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment | x509.KeyUsageCertSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
		NotBefore:             now.Add(-time.Minute),
		NotAfter:              now.Add(certLifetime),
	}
	der, err := x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key)
	if err != nil {
		return nil, nil, err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), nil
}
