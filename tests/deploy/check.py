#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check.py BINDIR SRCDIR [--bad=DIR] [FILE ...]: static checks of deploy/k8s and the Containerfile.

FILEs ending in .yaml are manifests, others Containerfiles (default: SRCDIR/deploy/k8s/*.yaml
and SRCDIR/Containerfile). Manifests: every document validates against
tests/deploy/k8s-schema.json; selectors match their pod template's labels; a Service selects
some workload; namespaces exist in namespace.yaml; every gdr_* command line (command+args, or
inside `sh -c` scripts) names a program built in BINDIR, each of its options appears in that
program's --help, and the program accepts the whole line followed by --help (options are parsed
in order, so each value is checked before --help stops it; checks across options are not run).
A Containerfile: at least two stages, every FROM pinned to a tag,
COPY sources exist (or name an earlier stage), apt-get install with --no-install-recommends and
the lists removed, no CUDA package in the final stage, the CMD program built in BINDIR.
Prints one line per problem; exit 1 when there is any.
With --bad=DIR after SRCDIR: each file of DIR (with namespace.yaml) must fail with the message
its first line "# expect: REGEX" names, and the defaults must pass (the check can fail).
"""
import glob
import json
import os
import re
import shlex
import subprocess
import sys

import jsonschema
import yaml

problems = []


def bad(where, msg):
    problems.append("%s: %s" % (where, msg))


def pod_specs(doc):
    """(where, pod spec, template labels, selector labels) of a workload document."""
    spec = doc.get("spec") or {}
    tmpl = spec.get("template")
    if not isinstance(tmpl, dict):
        return []
    labels = (tmpl.get("metadata") or {}).get("labels") or {}
    sel = (spec.get("selector") or {}).get("matchLabels")
    return [(tmpl.get("spec") or {}, labels, sel)]


def gdr_lines(container):
    """The gdr_* command lines a container runs, as argument lists."""
    argv = list(container.get("command") or []) + list(container.get("args") or [])
    if not argv:
        return []
    if os.path.basename(argv[0]).startswith("gdr_"):
        return [argv]
    if os.path.basename(argv[0]) in ("sh", "bash") and "-c" in argv[1:]:
        script = argv[argv.index("-c") + 1] if argv.index("-c") + 1 < len(argv) else ""
        lex = shlex.shlex(script, posix=True, punctuation_chars=";&|<>()")
        lex.whitespace_split = True
        toks = list(lex)
        out = []
        for i, t in enumerate(toks):
            if not t.startswith("-") and os.path.basename(t).startswith("gdr_"):
                line = [t]
                for u in toks[i + 1:]:
                    if u and u[0] in ";&|<>()" or u in ("do", "done", "then", "fi"):
                        break
                    line.append(u)
                out.append(line)
        return out
    return []


def help_text(bindir, prog, cache={}):
    if prog not in cache:
        r = subprocess.run([os.path.join(bindir, prog), "--help"], capture_output=True,
                           text=True, timeout=10)
        cache[prog] = r.stdout + r.stderr if r.returncode == 0 else None
    return cache[prog]


def check_line(where, bindir, argv):
    prog = os.path.basename(argv[0])
    path = os.path.join(bindir, prog)
    if not os.access(path, os.X_OK):
        bad(where, "%s: no such program in %s" % (prog, bindir))
        return
    text = help_text(bindir, prog)
    if text is None:
        bad(where, "%s --help failed" % prog)
        return
    for a in argv[1:]:
        if a.startswith("--"):
            opt = a.split("=", 1)[0]
            if not re.search(r"(^|[\s,])%s([=\s,\[]|$)" % re.escape(opt), text, re.M):
                bad(where, "%s: option %s is not in its --help" % (prog, opt))
        elif re.match(r"^-[A-Za-z]$", a):
            if not re.search(r"(^|\s)%s," % re.escape(a), text, re.M):
                bad(where, "%s: option %s is not in its --help" % (prog, a))
    r = subprocess.run([path] + argv[1:] + ["--help"], capture_output=True, text=True, timeout=10)
    if r.returncode != 0:
        err = (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[0]
        bad(where, "%s rejects its arguments: %s" % (" ".join(argv), err))


def check_manifests(files, bindir, schema):
    docs = []
    for f in files:
        try:
            with open(f) as fh:
                for i, d in enumerate(yaml.safe_load_all(fh)):
                    if d is not None:
                        docs.append(("%s#%d" % (os.path.basename(f), i + 1), d))
        except (OSError, yaml.YAMLError) as e:
            bad(f, "cannot read: %s" % str(e).replace("\n", " "))
    if not docs:
        bad("manifests", "no Kubernetes documents")
    v = jsonschema.Draft7Validator(schema)
    namespaces = {d["metadata"]["name"] for _, d in docs
                  if d.get("kind") == "Namespace" and isinstance(d.get("metadata"), dict)}
    workload_labels = []
    nlines = 0
    for where, d in docs:
        where = "%s (%s %s)" % (where, d.get("kind"), (d.get("metadata") or {}).get("name"))
        for e in sorted(v.iter_errors(d), key=lambda e: list(e.absolute_path)):
            bad(where, "schema: %s: %s" % ("/".join(str(p) for p in e.absolute_path) or "(top)",
                                           e.message))
        ns = (d.get("metadata") or {}).get("namespace")
        if d.get("kind") != "Namespace" and ns not in namespaces:
            bad(where, "namespace %r is not defined by any Namespace here" % ns)
        for spec, labels, sel in pod_specs(d):
            workload_labels.append(labels)
            if sel is not None and any(labels.get(k) != v2 for k, v2 in sel.items()):
                bad(where, "selector %s does not match the template labels %s" % (sel, labels))
            for c in (spec.get("containers") or []) + (spec.get("initContainers") or []):
                for argv in gdr_lines(c):
                    nlines += 1
                    check_line("%s container %s" % (where, c.get("name")), bindir, argv)
    for where, d in docs:
        if d.get("kind") == "Service":
            sel = (d.get("spec") or {}).get("selector") or {}
            if not any(all(l.get(k) == x for k, x in sel.items()) for l in workload_labels):
                bad(where, "selector %s selects no workload here" % sel)
    return len(docs), nlines


def check_containerfile(path, bindir, src):
    try:
        lines = open(path).read().replace("\\\n", " ").splitlines()
    except OSError as e:
        bad(path, "cannot read: %s" % e)
        return
    insts = [l.strip() for l in lines if l.strip() and not l.strip().startswith("#")]
    args = {}
    stages, final_runs, cmd = [], [], None
    for ins in insts:
        word, _, rest = ins.partition(" ")
        word = word.upper()
        if word == "ARG" and "=" in rest:
            k, val = rest.split("=", 1)
            args[k.strip()] = val.strip()
        elif word == "FROM":
            m = re.match(r"(\S+)(?:\s+AS\s+(\S+))?$", rest.strip(), re.I)
            if not m:
                bad(path, "FROM %s: not IMAGE [AS NAME]" % rest)
                continue
            image = re.sub(r"\$\{(\w+)\}", lambda g: args.get(g.group(1), ""), m.group(1))
            if image.split("/")[-1].count(":") != 1 or image.endswith(":latest"):
                bad(path, "FROM %s: pin the image to a tag" % image)
            stages.append(m.group(2))
            final_runs = []
        elif word == "COPY":
            toks = rest.split()
            frm = [t for t in toks if t.startswith("--from=")]
            srcs = [t for t in toks if not t.startswith("--")][:-1]
            if frm:
                if frm[0][7:] not in stages[:-1]:
                    bad(path, "COPY %s: no earlier stage of that name" % frm[0])
            else:
                for s in srcs:
                    if not os.path.exists(os.path.join(src, s)):
                        bad(path, "COPY %s: no such path in the build context" % s)
        elif word == "RUN":
            final_runs.append(rest)
            if "apt-get install" in rest:
                if "--no-install-recommends" not in rest:
                    bad(path, "RUN apt-get install without --no-install-recommends")
                if "rm -rf /var/lib/apt/lists" not in rest:
                    bad(path, "RUN apt-get install leaves /var/lib/apt/lists in the layer")
        elif word == "CMD":
            cmd = rest
    if len(stages) < 2:
        bad(path, "not a multi-stage build (%d FROM)" % len(stages))
    for r in final_runs:
        if re.search(r"apt-get install[^&;]*\b\S*(cuda|nvidia)\S*", r, re.I):
            bad(path, "the final stage installs a CUDA/NVIDIA package (libcuda comes from the "
                      "container toolkit): %s" % r)
    if cmd:
        try:
            prog = json.loads(cmd)[0]
        except (ValueError, IndexError, TypeError):
            prog = cmd.split()[0]
        if prog.startswith("gdr_") and not os.access(os.path.join(bindir, prog), os.X_OK):
            bad(path, "CMD %s: no such program built" % prog)
    return len(stages)


def run(bindir, src, schema, paths):
    """Check paths (or the defaults); returns (docs, command lines, stages)."""
    del problems[:]
    files = [f for f in paths if f.endswith(".yaml")]
    cfiles = [f for f in paths if not f.endswith(".yaml")]
    if not paths:
        files = sorted(glob.glob(os.path.join(src, "deploy/k8s/*.yaml")))
        cfiles = [os.path.join(src, "Containerfile")]
    ndocs = nlines = nstages = 0
    if files:
        ndocs, nlines = check_manifests(files, bindir, schema)
    for c in cfiles:
        nstages += check_containerfile(c, bindir, src) or 0
    return ndocs, nlines, nstages


def run_bad(bindir, src, schema, bad_dir):
    """Every fixture fails with its expected message; returns the number of failures."""
    fails = 0
    names = sorted(os.listdir(bad_dir))
    for n in names:
        f = os.path.join(bad_dir, n)
        with open(f) as fh:
            m = re.match(r"# expect: (.*)", fh.readline())
        if not m:
            print("deploy-check: FAIL: %s has no '# expect:' first line" % n)
            fails += 1
            continue
        run(bindir, src, schema, [os.path.join(src, "deploy/k8s/namespace.yaml"), f])
        if not any(re.search(m.group(1), p) for p in problems):
            print("deploy-check: FAIL: %s: no problem matches /%s/; got: %s" % (
                n, m.group(1), problems or "none"))
            fails += 1
    if not fails:
        print("deploy-check: %d broken fixtures each refused with the expected message" % len(names))
    return fails


def main(argv):
    bad_dir = None
    if len(argv) > 2 and argv[2].startswith("--bad="):
        bad_dir = argv.pop(2)[6:]
    if len(argv) < 2:
        print("usage: check.py BINDIR SRCDIR [--bad=DIR] [FILE ...]", file=sys.stderr)
        return 2
    bindir, src = argv[0], argv[1]
    with open(os.path.join(src, "tests/deploy/k8s-schema.json")) as f:
        schema = json.load(f)
    fails = run_bad(bindir, src, schema, bad_dir) if bad_dir else 0
    ndocs, nlines, nstages = run(bindir, src, schema, argv[2:])
    for p in problems:
        print("deploy-check: " + p)
    if problems or fails:
        return 1
    print("deploy-check: %d manifest documents valid, %d gdr_* command lines accepted, "
          "%d Containerfile stages checked" % (ndocs, nlines, nstages))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
