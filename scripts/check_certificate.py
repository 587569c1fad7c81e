#!/usr/bin/env python3
"""Checks a bnsl certificate of optimality in exact arithmetic, trusting no solver.
Usage: python3 check_certificate.py SCORES.jkl CERTIFICATE.json"""
import json, math, sys
from fractions import Fraction as F

def read_jkl(path):  # GOBNILP score file: n, then per variable "name k" and k lines "score m parents"
    rows = [l.split() for l in open(path) if l.strip() and not l.lstrip().startswith("#")]
    n, i, names, lists = int(rows[0][0]), 1, [], []
    for _ in range(n):
        names.append(rows[i][0]); k = int(rows[i][1])
        lists.append([(F(float(r[0])), r[2:2 + int(r[1])]) for r in rows[i + 1:i + 1 + k]]); i += 1 + k
    ix = {v: j for j, v in enumerate(names)}  # parents by name, or by 0-based index
    mask = lambda ps: sum(1 << (ix[p] if p in ix else int(p)) for p in set(ps))
    return names, [[(s, mask(ps)) for s, ps in l] for l in lists]  # parent sets as bit masks

def grid(x):  # a certificate's decimal (at most 12 places) as an integer count of 1e-12
    q = F(x) * 10**12
    assert q.denominator == 1, f"{x} has more than 12 decimal places"
    return q.numerator

def check(scores, certificate):
    names, cands = read_jkl(scores)
    # u - sum >= s holds for an integer count of 1e-12 exactly when it holds for ceil(s * 1e12)
    ceil12 = [[(math.ceil(s * 10**12), ps) for s, ps in l] for l in cands]  # exact on fractions
    cert = json.load(open(certificate))
    assert cert["variables"] == names, "the certificate is about other variables"
    ix, n = {v: j for j, v in enumerate(names)}, len(names)
    S = lambda members: sum(1 << ix[v] for v in set(members))
    dag = [S(cert["dag"][v]) for v in names]
    score = sum(next(s for s, ps in cands[v] if ps == dag[v]) for v in range(n))
    left = (1 << n) - 1
    while left:  # acyclic: peel off nodes with no parent left
        sources = sum(1 << v for v in range(n) if left >> v & 1 and not dag[v] & left)
        assert sources, "the DAG has a cycle"
        left &= ~sources
    pending = [((), ())]  # per open side: the arcs (parent, node) it has, the arcs it has not
    for item in cert["tree"]:
        has, hasnt = pending.pop()
        if "branch" in item:
            arc = (ix[item["branch"]["parent"]], ix[item["branch"]["node"]])
            pending += [(has, hasnt + (arc,)), (has + (arc,), hasnt)]
            continue
        leaf = item["leaf"]
        u = [grid(x) for x in leaf["u"]]
        clusters = [(S(c["nodes"]), grid(c["lambda"])) for c in leaf["clusters"]]
        packings = [(S(p["nodes"]), grid(p["mu"])) for p in leaf["packings"]]
        assert len(u) == n and all(C and d >= 0 for C, d in clusters + packings), "bad dual values"
        bound = sum(u) - sum(d for _, d in clusters) + sum(d for _, d in packings)
        assert bound == grid(leaf["bound"]), "a leaf's bound is not its sum"
        assert F(bound, 10**12) <= score + F(1, 10**6), "a leaf's bound is above the DAG's score"
        for v in range(n):
            need = sum(1 << p for p, w in set(has) if w == v)
            deny = sum(1 << p for p, w in set(hasnt) if w == v)
            around = [(C, d) for C, d in clusters if C >> v & 1]
            packed = [(P & ~(1 << v), d) for P, d in packings if P >> v & 1]
            for s, ps in ceil12[v]:
                if ps & need == need and not ps & deny:
                    lhs = u[v] - sum(d for C, d in around if not ps & C) + sum(d for P, d in packed if P & ps == P)
                    assert lhs >= s, "a dual inequality fails for " + names[v]
    assert not pending, "the tree is incomplete"
    return score

if __name__ == "__main__":
    try:
        score = check(sys.argv[1], sys.argv[2])
    except (AssertionError, KeyError, StopIteration, IndexError, ValueError) as e:
        sys.exit(f"REJECTED: {type(e).__name__} {e}")
    print(f"accepted: no network of {sys.argv[1]} scores more than 1e-6 above {float(score):.6f}")
