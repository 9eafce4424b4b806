"""Writes a black-hole deal: python3 deal.py SEED > deal.dzn (17 piles of 3, top first)."""
import random, sys
rng = random.Random(int(sys.argv[1]))
cards = list(range(1, 52))
rng.shuffle(cards)
rows = [cards[3 * i:3 * i + 3] for i in range(17)]
print("piles = [|" + "|".join(", ".join(map(str, r)) for r in rows) + "|];")
