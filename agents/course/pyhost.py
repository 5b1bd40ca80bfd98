# The arena's Python host for course agents written in Python.
#
# Run by the course adapter as `python3 - MODE PATH`, this source on stdin. It talks
# to the adapter over two pipes, one JSON object per line: requests on file
# descriptor 3, replies on file descriptor 4. File descriptor 1 is the
# adapter's stderr log, so whatever the agent prints never reaches the
# plugin channel.
#
# MODE "dab": PATH is an AI Gaming Dots-and-Boxes bot module. It is imported
# once per game (its globals persist) and `calculate_move(gamestate)` is
# called with a fresh dictionary for every move.
#
# MODE "cachex": PATH is a COMP30024 2022 player package. Its parent folder
# goes first on sys.path, the package is imported under its own folder name,
# and the player is driven as the course referee drove it: Player(colour, n),
# action() on its turn, turn(colour, action) after every action of both
# sides. With a limit, its space is checked after every call as the
# referee checked it (space_check).

import ast
import importlib
import importlib.util
import json
import os
import sys
import traceback


def fail(what):
    """The agent raised: log the traceback as the course would have shown it
    and describe it in one line for the record."""
    text = traceback.format_exc()
    sys.stderr.write(text)
    sys.stderr.flush()
    last = text.strip().splitlines()[-1] if text.strip() else "error"
    return {"error": what + ": " + last}


def load_module(path):
    """Imports a bot module from its file under its own name, with its folder
    first on sys.path so that its sibling modules import as they did."""
    path = os.path.abspath(path)
    folder = os.path.dirname(path)
    name = os.path.splitext(os.path.basename(path))[0]
    sys.path.insert(0, folder)
    os.chdir(folder)
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError("cannot import %s" % path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def as_int(v):
    """An integer coordinate as a bot may return it: int or a numpy integer
    (bool is not a coordinate)."""
    if isinstance(v, bool):
        raise ValueError
    if isinstance(v, int):
        return v
    if hasattr(v, "dtype") and getattr(v.dtype, "kind", "") in "iu" and getattr(v, "shape", None) == ():
        return int(v)
    raise ValueError


def dab_line(ret):
    """The line a calculate_move returned, as the arena's move text
    [[a,b],[c,d]]; None when it is not a pair of two-integer dots."""
    if hasattr(ret, "tolist"):
        ret = ret.tolist()
    try:
        if not isinstance(ret, (list, tuple)) or len(ret) != 2:
            raise ValueError
        dots = []
        for d in ret:
            if hasattr(d, "tolist"):
                d = d.tolist()
            if not isinstance(d, (list, tuple)) or len(d) != 2:
                raise ValueError
            dots.append((as_int(d[0]), as_int(d[1])))
    except (ValueError, TypeError):
        return None
    return "[[%d,%d],[%d,%d]]" % (dots[0][0], dots[0][1], dots[1][0], dots[1][1])


def run_dab(path, recv, send):
    try:
        mod = load_module(path)
    except BaseException:
        send(fail("importing %s" % path))
        return
    fn = getattr(mod, "calculate_move", None)
    if not callable(fn):
        send({"error": "%s defines no calculate_move(gamestate) function" % path})
        return
    send({"ok": True})
    while True:
        req = recv()
        if req is None or req.get("op") == "end":
            return
        gamestate = json.loads(req["view"])
        try:
            ret = fn(gamestate)
        except BaseException:
            send(fail("calculate_move raised"))
            continue
        if ret is None:
            send({"error": "calculate_move returned None"})
            continue
        line = dab_line(ret)
        if line is None:
            # Not a line at all: passed on as text, judged invalid.
            send({"move": repr(ret)})
        else:
            send({"move": line})


def cachex_action(a):
    """The course referee's well-formedness check (game.py), then the
    arena's move text; None when the action is malformed."""
    if not isinstance(a, tuple) or a == ():
        a = (a,)
    atype, args = a[0], a[1:]
    if type(atype) is str:
        if atype == "STEAL" and len(args) == 0:
            return "STEAL"
        if atype == "PLACE" and len(args) == 2 and all(type(x) is int for x in args):
            return "PLACE %d %d" % args
    return None


def cachex_tuple(text):
    if text == "STEAL":
        return ("STEAL",)
    _, r, q = text.split(" ")
    return ("PLACE", int(r), int(q))


def vm_kib(field):
    """A size from /proc/self/status in KiB (VmSize, VmPeak), or None where
    the system has no such file, as the course referee read it."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


def space_check(baseline, limit_mib):
    """The course referee's space check after a timed call: peak virtual
    size above the size after imports, against the limit. An error reply
    when over (a peak stays over), else None."""
    if not limit_mib or baseline is None:
        return None
    peak = vm_kib("VmPeak")
    if peak is None:
        return None
    used = (peak - baseline) / 1024.0
    if used > limit_mib:
        return {"error": "exceeded space limit: peak virtual memory %.1f MiB above the size after imports (VmPeak %d KiB, baseline VmSize %d KiB), over the %d MiB limit" % (used, peak, baseline, limit_mib)}
    return None


def run_cachex(path, cls_name, recv, send, limit_mib=0):
    path = os.path.abspath(path.rstrip("/"))
    parent, name = os.path.dirname(path), os.path.basename(path)
    sys.path.insert(0, parent)
    os.chdir(parent)
    try:
        mod = importlib.import_module(name)
        cls = getattr(mod, cls_name)
    except BaseException:
        send(fail("importing package %s" % name))
        return
    # The course referee's baseline: taken once the player's modules are
    # imported, so the libraries they import are not the player's use.
    baseline = vm_kib("VmSize")
    send({"ok": True})
    player = None
    while True:
        req = recv()
        if req is None or req.get("op") == "end":
            return
        op = req["op"]
        try:
            if op == "init":
                player = cls(req["colour"], req["n"])
                reply = {"ok": True}
            elif op == "action":
                a = player.action()
                text = cachex_action(a)
                reply = {"move": text if text is not None else repr(a if isinstance(a, tuple) and a != () else (a,))}
            elif op == "turn":
                player.turn(req["colour"], cachex_tuple(req["action"]))
                reply = {"ok": True}
            else:
                reply = {"error": "unknown request %r" % op}
        except BaseException:
            reply = fail("%s raised" % {"init": "Player(colour, n)", "action": "action()", "turn": "turn(colour, action)"}.get(op, op))
        # Checked after every timed call, as the referee did.
        send(space_check(baseline, limit_mib) or reply)


def module_file(roots, dotted):
    """The source file of a local module, or None when it is not local."""
    parts = dotted.split(".")
    for root in roots:
        base = os.path.join(root, *parts)
        for f in (base + ".py", os.path.join(base, "__init__.py")):
            if os.path.isfile(f):
                return f
    return None


def imports_outside_try(tree):
    """Import statements that are not guarded by try (a guarded import is
    the agent's own fallback, not a requirement)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Try):
            todo.extend(node.orelse + node.finalbody + [h for h in node.handlers])
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        todo.extend(ast.iter_child_nodes(node))


def check(entry, roots):
    """Pre-flight without running the agent: parses the entry file and
    every local module it imports, and finds every other module it imports
    without importing it. Reports syntax errors and missing modules."""
    seen, todo, errors, missing = set(), [os.path.abspath(entry)], [], []
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        try:
            with open(f, "rb") as fh:
                tree = ast.parse(fh.read(), f)
        except SyntaxError as e:
            errors.append("%s:%s: SyntaxError: %s" % (e.filename, e.lineno, e.msg))
            continue
        except OSError as e:
            errors.append("%s: %s" % (f, e))
            continue
        pkg = os.path.dirname(f)
        for node in imports_outside_try(tree):
            if isinstance(node, ast.ImportFrom) and node.level > 0:
                base = pkg
                for _ in range(node.level - 1):
                    base = os.path.dirname(base)
                names = [node.module] if node.module else [a.name for a in node.names]
                for n in names:
                    lf = module_file([base], n)
                    if lf:
                        todo.append(lf)
                continue
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
            for n in names:
                lf = module_file(roots, n)
                if lf:
                    todo.append(lf)
                    if isinstance(node, ast.ImportFrom):
                        for a in node.names:
                            sub = module_file(roots, n + "." + a.name)
                            if sub:
                                todo.append(sub)
                    continue
                top = n.split(".")[0]
                if module_file(roots, top) or top in sys.builtin_module_names:
                    continue
                try:
                    found = importlib.util.find_spec(top) is not None
                except (ImportError, ValueError):
                    found = False
                if not found and top not in missing:
                    missing.append(top)
    return {"errors": errors, "missing": missing}


def main():
    mode, path = sys.argv[1], sys.argv[2]
    if mode == "check":
        # check ENTRY ROOT...: prints the report on stdout.
        print(json.dumps(check(path, [os.path.abspath(r) for r in sys.argv[3:]])))
        return
    rd = os.fdopen(3, "r", encoding="utf-8")
    wr = os.fdopen(4, "w", encoding="utf-8")
    # The agent never sees the channel's descriptors under their usual
    # numbers being inherited by children it starts.
    os.set_inheritable(3, False)
    os.set_inheritable(4, False)

    def recv():
        line = rd.readline()
        return json.loads(line) if line else None

    def send(obj):
        wr.write(json.dumps(obj) + "\n")
        wr.flush()

    if mode == "dab":
        run_dab(path, recv, send)
    elif mode == "cachex":
        # cachex PATH CLASS [PEAK_MIB]
        limit = int(sys.argv[4]) if len(sys.argv) > 4 else 0
        run_cachex(path, sys.argv[3] if len(sys.argv) > 3 else "Player", recv, send, limit)
    else:
        send({"error": "unknown host mode %r" % mode})


main()
