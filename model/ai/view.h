// What one side may see of a game (issue 8: "the AI is given the side's view, not the state").
//
// A SideView is built from the real state for one side and keeps only a *redacted* copy of it: the
// opponent's hand and Unplayed pile are pooled, sorted and re-dealt in a fixed order; the side's own
// Unplayed pile is sorted; the engine's generator is replaced by a constant one and scripted dice are
// dropped (future dice are hidden information too). So two real states that differ only in the
// opponent's hand, the deck order or the dice to come give the same SideView, and a bot that sees only
// SideViews cannot depend on them: this is enforced by construction (tests/test_ai.cpp).
//
// What stays visible: the side's own hand, the public state (board, tracks, Played piles, removed
// cards, events played), the opponent's hand size and the size of each pile.
#pragma once

#include "rules/engine.h"

#include <memory>
#include <vector>

namespace wp::ai {

class SideView {
  public:
    SideView() = default;
    SideView(const rules::Engine& engine, const rules::GameState& real, int side);

    int side() const { return m_side; }
    const rules::Engine& engine() const { return m_engine; }
    const GameData& data() const { return m_engine.data(); }
    // The redacted state: legal to play on, but its hidden parts (the opponent's hand, both Unplayed
    // piles' order, the generator) are placeholders, not the real ones.
    const rules::GameState& state() const { return m_state; }
    int actor() const { return m_engine.actor(m_state); }
    std::vector<rules::Action> legalActions() const { return m_engine.legalActions(m_state); }

    // The cards the side cannot see: the opponent's hand and Unplayed pile together (sorted), and the
    // side's own Unplayed pile (sorted).
    const std::vector<int16_t>& unseenOpponentCards() const { return m_unseenOpp; }
    int opponentHandSize() const { return m_oppHand; }

    // One possible real state consistent with the view (a determinisation): the opponent's unseen
    // cards shuffled and dealt to his hand and pile, the side's own pile shuffled, a fresh generator.
    // Everything random comes from `rng` (the AI's own generator).
    rules::GameState determinise(rules::Rng& rng) const;

  private:
    rules::Engine m_engine{nullptr};
    rules::GameState m_state;
    int m_side = rules::kCatholic;
    std::vector<int16_t> m_unseenOpp;
    int m_oppHand = 0;
};

} // namespace wp::ai
