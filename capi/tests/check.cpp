// Compiles include/boardbase.h as C++ (its extern "C" guard) and links it;
// run by capi/tests/c_program.rs.
#include <cstdint>
#include <cstdio>

#include "boardbase.h"

int main() {
    // POJ 1753's sample bwwb/bbwb/bwwb/bwww: 4 rounds.
    const std::uint16_t board = 0x19B9;
    const int rounds = boardbase_flip_rounds(board);
    const long long count = boardbase_carcassonne_count(1, 2, "RRRFFCCC");
    std::printf("%d %lld %d\n", rounds, count, boardbase_euler_winning(0));
    return rounds == 4 && count == 1 ? 0 : 1;
}
