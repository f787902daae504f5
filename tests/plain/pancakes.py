"""Pancake flipping, plain breadth-first search over tuples.

Rules implemented:
- A stack is a tuple of sizes, top first. A flip turns over the top k pancakes (k >= 2):
  the first k entries in the opposite order. The goal is 1, 2, ..., n.
"""

from collections import deque


def distances(stack):
    """Every stack reachable from `stack`, with the fewest flips to it."""
    stack = tuple(stack)
    dist = {stack: 0}
    queue = deque([stack])
    while queue:
        s = queue.popleft()
        for k in range(2, len(s) + 1):
            t = s[:k][::-1] + s[k:]
            if t not in dist:
                dist[t] = dist[s] + 1
                queue.append(t)
    return dist


def fewest_flips(stack):
    return distances(stack)[tuple(sorted(stack))]


def layers(stack):
    dist = distances(stack)
    sizes = [0] * (max(dist.values()) + 1)
    for d in dist.values():
        sizes[d] += 1
    return sizes
