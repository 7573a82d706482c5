#include "ai/view.h"

#include <algorithm>

namespace wp::ai {

using namespace wp::rules;

namespace {

template <typename T> void shuffle(std::vector<T>& v, Rng& rng) {
    for (size_t i = v.size(); i > 1; --i)
        std::swap(v[i - 1], v[static_cast<size_t>(rng.below(static_cast<int>(i)))]);
}

// Deals `pool` in order: the first `handSize` to the hand, the rest to the Unplayed pile.
void deal(GameState& s, int side, const std::vector<int16_t>& pool, int handSize) {
    s.hand[side].assign(pool.begin(), pool.begin() + handSize);
    s.drawPile[side].assign(pool.begin() + handSize, pool.end());
    for (int16_t c : s.hand[side])
        s.cardPlace[static_cast<size_t>(c)] = CardPlace::Hand;
    for (int16_t c : s.drawPile[side])
        s.cardPlace[static_cast<size_t>(c)] = CardPlace::Unplayed;
}

} // namespace

SideView::SideView(const Engine& engine, const GameState& real, int side)
    : m_engine(engine), m_state(real), m_side(side) {
    const int opp = other(side);
    m_oppHand = static_cast<int>(real.hand[opp].size());
    m_unseenOpp = real.hand[opp];
    m_unseenOpp.insert(m_unseenOpp.end(), real.drawPile[opp].begin(), real.drawPile[opp].end());
    std::sort(m_unseenOpp.begin(), m_unseenOpp.end());
    deal(m_state, opp, m_unseenOpp, m_oppHand);
    std::sort(m_state.drawPile[side].begin(), m_state.drawPile[side].end());
    // Future dice are hidden as well: a constant generator, no scripted dice.
    m_state.rng = Rng(0x5eed5eedULL);
    m_state.forcedDice.clear();
}

GameState SideView::determinise(Rng& rng) const {
    GameState s = m_state;
    std::vector<int16_t> pool = m_unseenOpp;
    shuffle(pool, rng);
    deal(s, other(m_side), pool, m_oppHand);
    shuffle(s.drawPile[m_side], rng);
    const uint64_t hi = rng.next(), lo = rng.next();
    s.rng.reseed((hi << 32) | lo);
    return s;
}

} // namespace wp::ai
