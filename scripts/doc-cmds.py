#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The command blocks of the README and docs/, as a test runs them.

A command block is an indented code block (four spaces, after a blank
line) or a fenced one marked sh, shell, bash or console. Each carries a
marker on the nearest non-blank line above it:

    <!-- cmds ID: run TEST[,TEST] -->
                                    each TEST runs (part of) the block as
                                    written, taking it by ID (a line naming
                                    doc-cmds or doc_cmds and ID); a line that would change the
                                    machine (an install) it runs into a
                                    scratch root, and says so
    <!-- cmds ID: not run -->       the paragraph just before or after
                                    the block says, in words a reader
                                    sees, "not run by the tests" and why

A document whose blocks are all the record of a script's run (docs/
reproductions.md) says so once at its top, "<!-- cmds: not run -->" and
the sentence, instead.

  doc-cmds.py list DOC...     one JSON object a block: doc, line, id,
                              how (run, not run, none), test, lines
  doc-cmds.py get DOC ID      the block's commands, one a line, each
                              as written (a line ending in a backslash
                              joined to the next)
  doc-cmds.py check DOC...    every block marked, ids unique, each run
                              block's test naming it, each not-run one
                              explained; one line per fault, exit 1
"""
import json
import os
import re
import sys

MARK = re.compile(r'^<!-- cmds( ([A-Za-z0-9_.-]+))?: (run (\S+)|not run) -->$')
FENCE = re.compile(r'^(```+|~~~+)\s*([A-Za-z]*)')
SHELL = {'sh', 'shell', 'bash', 'console'}
SAID = 'not run by the tests'


def blocks(path):
    """Each command block of PATH: (first line number, lines, marker)."""
    with open(path, encoding='utf-8') as f:
        text = f.read().split('\n')
    out, i, fence = [], 0, None
    while i < len(text):
        line = text[i]
        m = FENCE.match(line)
        if m and fence is None:
            fence = (m.group(1), m.group(2).lower(), i)
            i += 1
            continue
        if fence is not None:
            if line.startswith(fence[0]):
                if fence[1] in SHELL:
                    out.append((fence[2] + 2, text[fence[2] + 1:i],
                                marker(text, fence[2])))
                fence = None
            i += 1
            continue
        if line.startswith('    ') and line.strip() and \
                (i == 0 or not text[i - 1].strip() or text[i - 1].startswith('<!--')):
            j = i
            while j < len(text) and (text[j].startswith('    ') or
                                     (not text[j].strip() and j + 1 < len(text) and
                                      text[j + 1].startswith('    '))):
                j += 1
            out.append((i + 1, [ln[4:] for ln in text[i:j]], marker(text, i)))
            i = j
            continue
        i += 1
    return text, out


def marker(text, i):
    """The marker above line index I: blanks and other comments skipped."""
    k = i - 1
    while k >= 0 and (not text[k].strip() or (text[k].startswith('<!--') and
                                                not MARK.match(text[k].strip()))):
        k -= 1
    m = MARK.match(text[k].strip()) if k >= 0 else None
    if not m:
        return None
    return {'id': m.group(2), 'how': 'run' if m.group(4) else 'not run',
            'test': m.group(4)}


def doc_marker(text):
    """The whole document's "<!-- cmds: not run -->", if it has one."""
    for line in text[:40]:
        m = MARK.match(line.strip())
        if m and not m.group(2):
            return {'id': None, 'how': 'not run', 'test': None}
    return None


def commands(lines):
    """The block's commands, continuation lines joined, blanks dropped."""
    out, cur = [], ''
    for ln in lines:
        if not ln.strip() and not cur:
            continue
        if ln.endswith('\\'):
            cur += ln[:-1]
            continue
        out.append(cur + ln)
        cur = ''
    if cur:
        out.append(cur)
    return out


def paragraph(text, start, step):
    """The paragraph next to a block: lines from START in direction STEP."""
    k = start
    while 0 <= k < len(text) and (not text[k].strip() or text[k].startswith('<!--')):
        k += step
    para = []
    while 0 <= k < len(text) and text[k].strip() and not text[k].startswith('    '):
        para.append(text[k])
        k += step
    return ' '.join(para)


def said(text, first, n):
    """Does the text beside the block (lines FIRST.. of N) explain it?"""
    near = paragraph(text, first - 2, -1) + ' ' + paragraph(text, first - 1 + n, 1)
    return SAID in ' '.join(near.lower().split())


def runners(mk):
    """What is wrong with a run marker's tests (comma-separated)."""
    faults = []
    for test in mk['test'].split(','):
        if not os.path.isfile(test):
            faults.append(f'{mk["id"]} is run by {test}, which does not exist')
        elif not any(re.search(r'doc.cmds', ln) and
                     re.search(r'(?<![\w-])%s(?![\w-])' % re.escape(mk['id']), ln)
                     for ln in open(test, encoding='utf-8')):
            faults.append(f'{test} does not name {mk["id"]}, so it cannot be '
                          'running it')
    return faults


def check(paths):
    faults, seen = [], {}
    for path in paths:
        text, found = blocks(path)
        whole = doc_marker(text)
        if whole and SAID not in ' '.join(' '.join(text[:40]).lower().split()):
            faults.append(f'{path}: "<!-- cmds: not run -->" without the words '
                          f'"{SAID}" near the top')
        for first, lines, mk in found:
            where = f'{path}:{first}'
            if mk is None:
                if not whole:
                    faults.append(f'{where}: a command block with no '
                                  '"<!-- cmds ID: ... -->" above it '
                                  f'({commands(lines)[0][:60] if commands(lines) else ""})')
                continue
            if mk['id'] in seen:
                faults.append(f'{where}: id {mk["id"]} again (first at {seen[mk["id"]]})')
            seen[mk['id']] = where
            if mk['how'] == 'run':
                faults += [f'{where}: {f}' for f in runners(mk)]
            elif not said(text, first, len(lines)):
                faults.append(f'{where}: {mk["id"]} is not run, and the text '
                              f'beside it does not say "{SAID}" and why')
    return faults


def main(argv):
    if len(argv) < 2 or argv[1] in ('-h', '--help'):
        print(__doc__.strip())
        return 0 if len(argv) > 1 else 2
    cmd, args = argv[1], argv[2:]
    if cmd == 'list':
        for path in args:
            text, found = blocks(path)
            for first, lines, mk in found:
                mk = mk or doc_marker(text) or {'id': None, 'how': 'none', 'test': None}
                print(json.dumps({'doc': path, 'line': first, **mk,
                                  'lines': commands(lines)}))
        return 0
    if cmd == 'get' and len(args) == 2:
        for first, lines, mk in blocks(args[0])[1]:
            if mk and mk['id'] == args[1]:
                print('\n'.join(commands(lines)))
                return 0
        print(f'doc-cmds.py: no block {args[1]} in {args[0]}', file=sys.stderr)
        return 1
    if cmd == 'check':
        faults = check(args)
        for f in faults:
            print(f)
        return 1 if faults else 0
    print(f'doc-cmds.py: unknown command {cmd} (list, get, check)', file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
