package host

import (
	"crypto/tls"
	"os/exec"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"arena/plugins/protocol"
)

// clientConfig is go-plugin's configuration for one agent process: the
// handshake of the protocol version, gRPC only, the channel's TLS
// (channelTLS, its variables added to cmd's environment), the process's
// output kept by p.
func (l *Launcher) clientConfig(cmd *exec.Cmd, p *Process, version uint, opt Options) (*plugin.ClientConfig, error) {
	tlsEnv, tlsConfig, err := l.channelTLS()
	if err != nil {
		return nil, err
	}
	cmd.Env = append(cmd.Env, tlsEnv...)
	return &plugin.ClientConfig{
		HandshakeConfig:  protocol.Handshake(version),
		Plugins:          protocol.Plugins(nil),
		Cmd:              cmd,
		SkipHostEnv:      true,
		TLSConfig:        tlsConfig,
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		StartTimeout:     opt.startTimeout(),
		Stderr:           p.errIn,
		SyncStderr:       p.errIn,
		SyncStdout:       p.stdout,
		Logger:           hclog.NewNullLogger(),
		GRPCDialOptions: []grpc.DialOption{
			grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(protocol.RecvLimit(opt.MaxReplyBytes))),
			// After go-plugin's own dialer, so it takes its place.
			grpc.WithContextDialer(p.dialSocket),
		},
	}, nil
}

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
