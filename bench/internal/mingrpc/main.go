// Command mingrpc is the gRPC floor of the benchmarks: the agent service
// served by plain gRPC on a Unix socket, without go-plugin, TLS, a sandbox
// or any game code, answering every move request at once.
//
//	mingrpc exit      # returns at once (fork/exec floor of a gRPC binary)
//	mingrpc SOCKET    # serves until killed, prints "ready"
package main

import (
	"context"
	"fmt"
	"net"
	"os"

	"google.golang.org/grpc"

	pb "arena/plugins/proto"
)

type agent struct{ pb.UnimplementedAgentServer }

func (agent) Move(context.Context, *pb.MoveRequest) (*pb.MoveReply, error) {
	return &pb.MoveReply{Move: []byte("h 0 0")}, nil
}

func (agent) StartGame(context.Context, *pb.StartRequest) (*pb.StartReply, error) {
	return &pb.StartReply{}, nil
}

func main() {
	if len(os.Args) == 2 && os.Args[1] == "exit" {
		return
	}
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: mingrpc exit | mingrpc SOCKET")
		os.Exit(2)
	}
	ln, err := net.Listen("unix", os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "mingrpc:", err)
		os.Exit(1)
	}
	s := grpc.NewServer()
	pb.RegisterAgentServer(s, agent{})
	fmt.Println("ready")
	if err := s.Serve(ln); err != nil {
		fmt.Fprintln(os.Stderr, "mingrpc:", err)
		os.Exit(1)
	}
}
