package host

import (
	"crypto/tls"
	"os/exec"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"arena/plugins/protocol"
)

// clientConfig is go-plugin's configuration for one agent process: the
// handshake of the protocol version, gRPC only, the channel's security
// (channelSecurity), the process's output kept by p.
func (l *Launcher) clientConfig(cmd *exec.Cmd, p *Process, version uint, opt Options) (*plugin.ClientConfig, error) {
	tlsConfig, transport, err := l.channelSecurity(cmd, p)
	if err != nil {
		return nil, err
	}
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
		GRPCDialOptions: append([]grpc.DialOption{
			grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(protocol.RecvLimit(opt.MaxReplyBytes))),
			// After go-plugin's own dialer, so it takes its place.
			grpc.WithContextDialer(p.dialSocket),
		}, transport...),
	}, nil
}

// channelSecurity chooses how the agent's gRPC channel is authenticated.
//
// A sandboxed agent serves on a socket in its private tmpfs, a mount
// with no path on the host: only the arena (through the mount's
// descriptor) and the agent's own sandbox can reach it, so the kernel
// authenticates both ends, as it does for the move channel's socket
// pair. Its channel is plain gRPC: TLS would add nothing but a handshake
// with the cold agent (7–11 ms of an SDK agent's start in the bench,
// docs/performance.md).
// The returned TLS configuration is then never used for the transport
// (the insecure transport credentials come after go-plugin's and take
// their place); it is there because go-plugin writes a certificate an
// agent announces on its handshake line into the configuration it has,
// and would dereference a nil one.
//
// An agent without a sandbox serves on a socket in a folder of the host
// that other processes of the arena's user can reach: its channel is
// mutually authenticated TLS (channelTLS).
func (l *Launcher) channelSecurity(cmd *exec.Cmd, p *Process) (*tls.Config, []grpc.DialOption, error) {
	if p.dirMount != nil {
		return &tls.Config{MinVersion: tls.VersionTLS13}, []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}, nil
	}
	env, cfg, err := l.channelTLS()
	if err != nil {
		return nil, nil, err
	}
	cmd.Env = append(cmd.Env, env...)
	return cfg, nil, nil
}

// Channel says how this launcher's agents' gRPC channels are secured
// (channelSecurity), for arena doctor.
func (l *Launcher) Channel() string {
	if l.Sandboxed() {
		return "plain gRPC on a socket in the agent's private mount, which only the arena and that sandbox can reach"
	}
	return "gRPC over mutually authenticated TLS 1.3, with keys the arena makes"
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
