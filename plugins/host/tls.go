package host

import (
	"crypto/tls"

	"arena/plugins/protocol"
)

// channelTLS returns the environment and client configuration of one
// agent's mutually authenticated gRPC channel (protocol.Credentials): the
// arena's key is made once per launcher, the agent's per process. The
// arena's certificate also goes out as go-plugin's PLUGIN_CLIENT_CERT, so
// an agent whose SDK predates protocol.ServerTLS authenticates the arena
// through AutoMTLS as before and sends its own certificate back.
func (l *Launcher) channelTLS() ([]string, *tls.Config, error) {
	l.tlsOnce.Do(func() { l.creds, l.credsErr = protocol.NewCredentials() })
	if l.credsErr != nil {
		return nil, nil, l.credsErr
	}
	env, cfg, err := l.creds.ForAgent()
	if err != nil {
		return nil, nil, err
	}
	return []string{protocol.TLSEnv + "=" + env, "PLUGIN_CLIENT_CERT=" + string(l.creds.ArenaCertPEM())}, cfg, nil
}
