#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Run a command with a pty this script makes as its controlling terminal (its
# own session), stdio left as given; afterwards write whatever input reached
# that pty (what a TIOCSTI pushed) into INJECTED. Exits with the command's
# status (128 + signal when a signal ended it).
#
#   in_pty.py INJECTED COMMAND ARGS...
import fcntl, os, sys, termios, tty

master, slave = os.openpty()
tty.setraw(slave)  # injected bytes are readable at once, without a newline
pid = os.fork()
if pid == 0:
    os.setsid()
    fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    os.close(master)
    os.close(slave)
    os.execvp(sys.argv[2], sys.argv[2:])
_, status = os.waitpid(pid, 0)
os.set_blocking(slave, False)
got = b""
try:
    while True:
        chunk = os.read(slave, 4096)
        if not chunk:
            break
        got += chunk
except BlockingIOError:
    pass
with open(sys.argv[1], "wb") as f:
    f.write(got)
sys.exit(os.waitstatus_to_exitcode(status) if os.waitstatus_to_exitcode(status) >= 0
         else 128 - os.waitstatus_to_exitcode(status))
