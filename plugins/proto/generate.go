// Package proto is the generated gRPC code of the agent protocol
// (agent.proto). Regenerate with `go generate ./plugins/proto` after editing
// agent.proto (needs protoc, protoc-gen-go and protoc-gen-go-grpc).
package proto

//go:generate protoc --go_out=../.. --go_opt=module=arena --go-grpc_out=../.. --go-grpc_opt=module=arena -I ../.. plugins/proto/agent.proto
