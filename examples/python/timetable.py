"""A small school timetable: lessons in slots and rooms, teachers never in two
places at once, a room holds one lesson per slot, and a teacher's preferred
slots count as a soft goal that the solver maximises.

    python examples/python/timetable.py
"""

from csp_rs import Model, Solver

SLOTS = ["Mon 9", "Mon 11", "Tue 9", "Tue 11", "Wed 9"]
ROOMS = ["lab", "hall"]
# lesson: (teacher, needs the lab)
LESSONS = {
    "chemistry": ("curie", True),
    "physics": ("curie", True),
    "algebra": ("noether", False),
    "geometry": ("noether", False),
    "history": ("gibbon", False),
    "biology": ("darwin", True),
}
PREFERS = {"curie": {0, 1}, "noether": {2, 3}, "darwin": {4}}


def main() -> None:
    m = Model()
    slot = {name: m.int_var(0, len(SLOTS) - 1, f"slot[{name}]") for name in LESSONS}
    room = {name: m.int_var(0, 0 if lab else 1, f"room[{name}]")
            for name, (_, lab) in LESSONS.items()}
    names = list(LESSONS)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if LESSONS[a][0] == LESSONS[b][0]:
                m.add(slot[a] != slot[b])  # one teacher, one place
            else:
                # not the same room at the same time: slot*2+room differ
                m.add(2 * slot[a] + room[a] != 2 * slot[b] + room[b])
    happy = []
    for name, (teacher, _) in LESSONS.items():
        if teacher in PREFERS:
            b = m.bool_var(f"happy[{name}]")
            m.table([slot[name], b], [(s, int(s in PREFERS[teacher])) for s in range(len(SLOTS))])
            happy.append(b)
    score = sum(happy[1:], happy[0])
    opt = Solver(m, strategy="fc+first-fail").maximize(score)
    for improving in opt:
        print("a timetable with", improving[score], "preferred lessons")
    best = opt.best
    assert best is not None and opt.optimal
    for name in sorted(names, key=lambda x: best[slot[x]]):
        print(f"{SLOTS[best[slot[name]]]:7} {ROOMS[best[room[name]]]:5} {name} ({LESSONS[name][0]})")
    print("optimal:", opt.objective, "of", len(happy))


if __name__ == "__main__":
    main()
