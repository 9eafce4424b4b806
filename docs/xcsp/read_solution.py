import sys
import xml.etree.ElementTree as ET

# Keep the `v` lines of xcsp-csp's output: they form one <instantiation>.
lines = [l[2:] for l in open(sys.argv[1]) if l.startswith("v ")]
inst = ET.fromstring("\n".join(lines))
values = [int(v) for v in inst.find("values").text.split()]
s, e, n, d, m, o, t, y = values
print(f"SEND={s}{e}{n}{d} MOST={m}{o}{s}{t} MONEY={m}{o}{n}{e}{y} (cost {inst.get('cost')})")
