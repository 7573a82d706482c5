// The engine's only source of randomness: a small, fast, seedable generator held in the game state, so a
// game replays exactly from its seed and its actions (design principles 2-3).
#pragma once

#include <cstdint>

namespace wp::rules {

class Rng {
  public:
    Rng() = default;
    explicit Rng(uint64_t seed) { reseed(seed); }
    void reseed(uint64_t seed);
    uint32_t next();
    int below(int n);               // uniform in [0, n)
    int d10() { return below(10); } // 2.5: 0..9, a 0 is zero
    bool operator==(const Rng&) const = default;

  private:
    uint64_t s[2] = {0x9e3779b97f4a7c15ULL, 0xbf58476d1ce4e5b9ULL};
};

} // namespace wp::rules
