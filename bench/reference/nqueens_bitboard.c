/* Plain bitboard N-Queens counter with mirror halving: the reference that the
 * Rust counters are timed against. Usage: nqueens_bitboard N (1 <= N <= 32).
 * Build: gcc -O3 -march=native -o nqueens_bitboard nqueens_bitboard.c */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t completions(uint32_t all, uint32_t cols, uint32_t ld, uint32_t rd)
{
    if (cols == all)
        return 1;
    uint64_t total = 0;
    uint32_t free = all & ~(cols | ld | rd);
    while (free) {
        uint32_t bit = free & -free;
        free ^= bit;
        total += completions(all, cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
    }
    return total;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 0;
    if (n < 1 || n > 32) {
        fprintf(stderr, "usage: %s N (1 <= N <= 32)\n", argv[0]);
        return 1;
    }
    uint32_t all = n == 32 ? UINT32_MAX : (UINT32_C(1) << n) - 1;
    uint64_t half = 0;
    for (int c = 0; c < n / 2; c++) {
        uint32_t bit = UINT32_C(1) << c;
        half += completions(all, bit, bit << 1, bit >> 1);
    }
    uint64_t middle = 0;
    if (n % 2) {
        uint32_t bit = UINT32_C(1) << (n / 2);
        middle = completions(all, bit, bit << 1, bit >> 1);
    }
    printf("%llu\n", (unsigned long long)(2 * half + middle));
    return 0;
}
