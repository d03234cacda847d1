#!/usr/bin/env python3
"""A model of what finding k invalid signatures among n costs in pairings.

It shows that a limit of two single verifications of CPU per invalid
signature at 1% invalid is below the floor of verifier's method, which
rejects a set only by a check of that set alone (see the verifier package
doc) and locates it with pairing values. It runs nothing of attpool: it counts
the values an idealised search computes, each a pairing (a Miller loop
and a final exponentiation), when every arithmetic step other than a
pairing is free.

The search has the whole call's value P under the call's scalars for free
(the failed check) and computes:
  - W, the whole call's value under the public weights 1..n (one value);
  - per failing range that W does not settle (two invalid sets or more):
    its left half's plain value (one value; the right half's by division);
    when both halves fail and each holds one invalid set, the two halves'
    suspects are named from the values already known (jointNames, no
    pairing); otherwise the left half's weighted value (one more value);
  - one one-set check per invalid set (a set is rejected only by its own
    check).
It also models verifier's parts: m ranges whose plain values are computed
(m - 1 values), a weighted value per failing part, then the same halving.
The best number of parts is the least of noisy estimates over m = 1 to
2k+1, which leans low: the floor it gives errs on the generous side.

Run: python3 scripts/locate_floor.py
"""
import random


def tree(c):
    """Values a failing range with c >= 1 invalid sets, its plain and
    weighted values known, costs to name them all (one-set checks not
    counted)."""
    if c == 1:
        return 0  # B = A^w names it
    left = sum(random.random() < 0.5 for _ in range(c))
    cost = 1  # the left half's plain value
    if left in (0, c):
        return cost + tree(c)  # one half passes: the other keeps B
    if left == 1 and c - left == 1:
        return cost  # jointNames
    return cost + 1 + tree(left) + tree(c - left)  # the left half's weighted value


def whole(k):
    return 1 + tree(k)


def parts(k, m):
    counts = [0] * m
    for _ in range(k):
        counts[random.randrange(m)] += 1
    return m - 1 + sum(1 + tree(c) for c in counts if c)


def main():
    random.seed(9)
    trials = 4000
    print("invalid  values/invalid: from the whole   best parts (m)   parts m=k   "
          "pairings/invalid with the one-set checks (best)")
    for k in (2, 3, 5, 10, 20, 51):
        w = sum(whole(k) for _ in range(trials)) / trials / k
        best, bm = min((sum(parts(k, m) for _ in range(trials // 10)) / (trials // 10) / k, m)
                       for m in range(1, 2 * k + 2))
        pk = sum(parts(k, k) for _ in range(trials)) / trials / k
        print(f"{k:7d}  {w:27.2f}  {best:11.2f} ({bm:2d})  {pk:10.2f}   {1 + min(w, best):.2f}")


if __name__ == "__main__":
    main()
