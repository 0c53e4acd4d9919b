#!/usr/bin/env python3
"""A unix-socket relay in front of a PostgreSQL server, whose connections
a test can cut: a fault injector for the store's sessions (it_workers).

    store_proxy.py SERVER_SOCKET PROXY_SOCKET CUT_SECONDS

Relays every connection made to PROXY_SOCKET to SERVER_SOCKET and prints
"ready" once it listens.  On SIGUSR1 it cuts: every relayed connection is
closed at once (both sides) and PROXY_SOCKET is gone for CUT_SECONDS, so
that a new connection is refused; then it listens again and prints
"back".  It ends on SIGTERM, or when its parent (the test) is gone.
"""
import os
import selectors
import signal
import socket
import sys
import time

server_path, proxy_path, cut_s = sys.argv[1], sys.argv[2], float(sys.argv[3])
sel = selectors.DefaultSelector()
pairs = {}  # socket -> its other end
cut_until = None
parent = os.getppid()
wake_r, wake_w = os.pipe()
os.set_blocking(wake_w, False)


def listen():
    if os.path.exists(proxy_path):
        os.unlink(proxy_path)
    lst = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    lst.bind(proxy_path)
    lst.listen(64)
    lst.setblocking(False)
    sel.register(lst, selectors.EVENT_READ, "listen")
    return lst


def close_pair(s):
    other = pairs.pop(s, None)
    for x in (s, other):
        if x is None:
            continue
        pairs.pop(x, None)
        try:
            sel.unregister(x)
        except (KeyError, ValueError):
            pass
        x.close()


def on_usr1(signum, frame):
    os.write(wake_w, b"c")


def on_term(signum, frame):
    os.write(wake_w, b"t")


signal.signal(signal.SIGUSR1, on_usr1)
signal.signal(signal.SIGTERM, on_term)
sel.register(wake_r, selectors.EVENT_READ, "wake")
lst = listen()
print("ready", flush=True)
while os.getppid() == parent:
    timeout = 1.0 if cut_until is None else min(1.0, max(0.0, cut_until - time.monotonic()))
    for key, _ in sel.select(timeout):
        what = key.data
        if what == "wake":
            for b in os.read(wake_r, 64):
                if b == ord("t"):
                    sys.exit(0)
                if cut_until is None:
                    for s in list(pairs):
                        close_pair(s)
                    sel.unregister(lst)
                    lst.close()
                    os.unlink(proxy_path)
                    cut_until = time.monotonic() + cut_s
                    print("cut", flush=True)
        elif what == "listen":
            try:
                client, _ = lst.accept()
            except BlockingIOError:
                continue
            upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                upstream.connect(server_path)
            except OSError:
                client.close()
                continue
            for s in (client, upstream):
                s.setblocking(False)
                sel.register(s, selectors.EVENT_READ, "relay")
            pairs[client], pairs[upstream] = upstream, client
        else:
            s = key.fileobj
            try:
                data = s.recv(65536)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:
                data = b""
            if not data or s not in pairs:
                close_pair(s)
                continue
            try:
                pairs[s].setblocking(True)
                pairs[s].sendall(data)
                pairs[s].setblocking(False)
            except OSError:
                close_pair(s)
    if cut_until is not None and time.monotonic() >= cut_until:
        cut_until = None
        lst = listen()
        print("back", flush=True)
