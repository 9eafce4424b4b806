// N-Queens in Gecode, the reference our engine is compared to.
//
// Model: q[i] = column of the queen in row i; three distinct constraints over
// q[i], q[i] + i and q[i] - i (offsets), default propagation level (IPL_DEF).
// Usage: gecode_queens N all|first input|ff [min|med]
//   all   counts every solution with DFS, first stops at the first one;
//   input branches on the variables in order (INT_VAR_NONE), ff on the
//   smallest domain first (INT_VAR_SIZE_MIN); min/med pick the smallest or
//   the median value (INT_VAL_MIN / INT_VAL_MED), min by default.
// Build: g++ -O3 -o gecode_queens gecode_queens.cpp \
//        -lgecodesearch -lgecodeint -lgecodekernel -lgecodesupport
#include <gecode/int.hh>
#include <gecode/search.hh>

#include <cstdlib>
#include <cstring>
#include <iostream>

using namespace Gecode;

class Queens : public Space {
public:
    IntVarArray q;

    Queens(int n, bool first_fail, bool median) : q(*this, n, 0, n - 1)
    {
        IntArgs up(n), down(n);
        for (int i = 0; i < n; i++) {
            up[i] = i;
            down[i] = -i;
        }
        distinct(*this, q);
        distinct(*this, up, q);
        distinct(*this, down, q);
        branch(*this, q, first_fail ? INT_VAR_SIZE_MIN() : INT_VAR_NONE(),
               median ? INT_VAL_MED() : INT_VAL_MIN());
    }

    Queens(Queens& s) : Space(s) { q.update(*this, s.q); }

    Space* copy() override { return new Queens(*this); }
};

int main(int argc, char** argv)
{
    if (argc < 4) {
        std::cerr << "usage: " << argv[0] << " N all|first input|ff [min|med]\n";
        return 1;
    }
    int n = std::atoi(argv[1]);
    bool all = std::strcmp(argv[2], "all") == 0;
    bool first_fail = std::strcmp(argv[3], "ff") == 0;
    bool median = argc > 4 && std::strcmp(argv[4], "med") == 0;
    if (n < 1) {
        std::cerr << "N must be at least 1\n";
        return 1;
    }
    Queens* root = new Queens(n, first_fail, median);
    DFS<Queens> search(root);
    delete root;
    unsigned long long solutions = 0;
    while (Queens* s = search.next()) {
        solutions++;
        if (!all) {
            // Check the solution independently of the constraints.
            for (int i = 0; i < n; i++)
                for (int j = i + 1; j < n; j++) {
                    int a = s->q[i].val(), b = s->q[j].val();
                    if (a == b || std::abs(a - b) == j - i) {
                        std::cerr << "invalid solution\n";
                        return 2;
                    }
                }
            delete s;
            break;
        }
        delete s;
    }
    Search::Statistics stat = search.statistics();
    std::cout << solutions << "\n";
    std::cerr << "nodes=" << stat.node << " fails=" << stat.fail << " depth=" << stat.depth << "\n";
    return 0;
}
