#include "rng.h"

namespace wp::rules {

namespace {
uint64_t splitmix(uint64_t& x) {
    uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
} // namespace

void Rng::reseed(uint64_t seed) {
    s[0] = splitmix(seed);
    s[1] = splitmix(seed);
    if (s[0] == 0 && s[1] == 0)
        s[1] = 1;
}

// xorshift128+
uint32_t Rng::next() {
    uint64_t s1 = s[0];
    const uint64_t s0 = s[1];
    s[0] = s0;
    s1 ^= s1 << 23;
    s[1] = s1 ^ s0 ^ (s1 >> 17) ^ (s0 >> 26);
    return static_cast<uint32_t>((s[1] + s0) >> 32);
}

int Rng::below(int n) {
    // rejection sampling: no modulo bias
    const uint32_t limit = UINT32_MAX - UINT32_MAX % static_cast<uint32_t>(n);
    uint32_t r;
    do {
        r = next();
    } while (r >= limit);
    return static_cast<int>(r % static_cast<uint32_t>(n));
}

} // namespace wp::rules
