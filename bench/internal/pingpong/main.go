// Command pingpong is the bare floor of the per-move benchmark: a plain
// Unix-socket server that answers each length-prefixed request with a reply
// of a fixed size, and the smallest Go program for the fork/exec floor.
//
//	pingpong exit                 # returns at once (fork/exec floor)
//	pingpong SOCKET REPLYBYTES    # serves one connection, prints "ready"
package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == "exit" {
		return
	}
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: pingpong exit | pingpong SOCKET REPLYBYTES")
		os.Exit(2)
	}
	n, err := strconv.Atoi(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, "pingpong: reply size:", err)
		os.Exit(2)
	}
	ln, err := net.Listen("unix", os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "pingpong:", err)
		os.Exit(1)
	}
	fmt.Println("ready")
	c, err := ln.Accept()
	if err != nil {
		fmt.Fprintln(os.Stderr, "pingpong:", err)
		os.Exit(1)
	}
	r := bufio.NewReader(c)
	reply := make([]byte, 4+n)
	binary.BigEndian.PutUint32(reply, uint32(n))
	var hdr [4]byte
	buf := make([]byte, 0, 4096)
	for {
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			return // the bench hung up
		}
		size := int(binary.BigEndian.Uint32(hdr[:]))
		if cap(buf) < size {
			buf = make([]byte, size)
		}
		if _, err := io.ReadFull(r, buf[:size]); err != nil {
			return
		}
		if _, err := c.Write(reply); err != nil {
			return
		}
	}
}
