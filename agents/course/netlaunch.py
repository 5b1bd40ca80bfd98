# The arena's launcher for NYCU hex cross-out agent scripts.
#
# Run by the course adapter as `python3 - SCRIPT`, this source on stdin, in a
# network namespace of its own (a fresh one, or the agent sandbox's): it
# brings the namespace's loopback up,
# listens on 127.0.0.1:8888 (the address the course's client library
# connects to), hands the listening socket to the adapter over file
# descriptor 3 (a Unix socket), and then replaces itself with
# `python3 SCRIPT` in the script's folder, as the course's server started
# the agent program.

import fcntl
import os
import socket
import struct
import sys

SIOCGIFFLAGS = 0x8913
SIOCSIFFLAGS = 0x8914
IFF_UP = 0x1
IFREQ = "16sH22x"


def loopback_up():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        name = b"lo"
        flags = struct.unpack(IFREQ, fcntl.ioctl(s, SIOCGIFFLAGS, struct.pack(IFREQ, name, 0)))[1]
        if not flags & IFF_UP:
            fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack(IFREQ, name, flags | IFF_UP))
    finally:
        s.close()


def main():
    script = os.path.abspath(sys.argv[1])
    ctl = socket.socket(family=socket.AF_UNIX, type=socket.SOCK_STREAM, fileno=3)
    try:
        loopback_up()
        ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        ls.bind(("127.0.0.1", 8888))
        ls.listen(4)
    except OSError as e:
        ctl.sendall(("error: the agent's network: %s" % e).encode())
        sys.exit(1)
    socket.send_fds(ctl, [b"ok"], [ls.fileno()])
    ls.close()
    ctl.close()
    os.chdir(os.path.dirname(script))
    os.execv(sys.executable, [sys.executable, os.path.basename(script)])


main()
