// The card-event hook. Each card's event is one small unit registered by card id (model/events/ fills
// them in, one file per card family); the engine calls it when a card is played as an Event, and for
// combat cards during the combat window.
#pragma once

#include "rules/internal.h"

#include <QHash>
#include <functional>

namespace wp::rules {

struct CombatCardEffect {
    int ownDrm = 0;   // added to the player's own combat roll
    int enemyDrm = 0; // added to the opponent's roll (negative: P13, C49)
    int ownShift = 0; // columns to the right on the player's own fire column
    int enemyShift = 0;
};

// What the options of an event's choice are (issue 5): the action notation names them ("choose vienna",
// "choose u12", "choose tilly"), the prompt says what is chosen, the UI shows names.
enum class EventOption : int8_t {
    Number,      // a plain number (no event uses it for now)
    City,        // a city index, or kBoxBase + box
    Unit,        // a unit index
    Leader,      // kLeaderBase + leader index
    LeaderOrCity // kLeaderBase + leader index, or a city
};
struct EventChoiceInfo {
    EventOption option = EventOption::Number;
    QString what; // "the city where Tilly enters (9.21)"; empty: unknown
};

struct EventDef {
    // May the card be played as an Event now by `side`? (null: always)
    std::function<bool(const Ctx&, int side)> playable;
    // Why not, in words with the rule number ("9.32: Spinola's army is not in the UP"); used by the UI and
    // CLI.
    std::function<QString(const Ctx&, int side)> whyNot;
    // Carries out the event. May push frames (e.g. a ChoiceFrame) for decisions it needs.
    std::function<void(Ctx&, int side)> apply;
    // For ChoiceFrames the event pushed (purpose >= kChooseEventBase): legal options and their effect.
    std::function<std::vector<Action>(const Ctx&, const ChoiceFrame&)> choiceLegal;
    std::function<void(Ctx&, const ChoiceFrame&, const Action&)> choiceApply;
    // What those options are and what is being chosen (for the notation, the prompt and the UI).
    std::function<EventChoiceInfo(const GameData&, const GameState&, const ChoiceFrame&)> choiceInfo;
    // Combat cards (9.5): whether it may be played in this combat, and its effect.
    std::function<bool(const Ctx&, const CombatFrame&, int side)> combatAllowed;
    CombatCardEffect combat;
    // Combat cards whose effect depends on the battle (C35/C47: +2 instead of +1 when defending / under a
    // Dynamic commander): when set, the combat resolution should use it instead of `combat` (`side` played
    // the card). Until combat.cpp reads it, `combat` holds the card's basic effect.
    std::function<CombatCardEffect(const Ctx&, const CombatFrame&, int side)> combatEffect;
    // After the battle is decided and the loser has retreated (C33 Croats: the loser's additional step),
    // once per card played by `side`. To be called by combat.cpp (kFinished).
    std::function<void(Ctx&, const CombatFrame&, int side)> afterCombat;
};

class EventRegistry {
  public:
    static EventRegistry& instance();
    void add(const QString& cardId, EventDef def);
    void remove(const QString& cardId); // tests
    const EventDef* find(const QString& cardId) const;
    // find(d.cards[cardIdx].id), from a per-thread table of the data set's cards (rebuilt when the data or
    // the registry changes): for the hot paths that ask for every card in a hand.
    const EventDef* findCard(const GameData& d, int cardIdx) const;

  private:
    QHash<QString, EventDef> m_defs;
    quint64 m_generation = 0; // changes with every add or remove
};

// What the event choice `f` (purpose >= kChooseEventBase, data = the card) offers; Number and an empty
// `what` when the card's event does not say.
EventChoiceInfo eventChoiceInfo(const GameData& d, const GameState& s, const ChoiceFrame& f);

// Registers the built-in events (called once by the Engine).
// 9.5: what `card`, played by `side` in the combat `f`, does to the rolls and columns now (the card's
// combatEffect when it depends on the battle, else its fixed effect). The combat resolution and the GUI's
// odds both use it.
CombatCardEffect combatCardEffect(const Ctx& c, const CombatFrame& f, int card, int side);
CombatCardEffect combatCardEffect(const GameData& d, const GameState& s, const CombatFrame& f, int card,
                                  int side);

void registerBuiltinEvents();
void registerCatholicEvents(EventRegistry& r);   // model/events/catholic.cpp
void registerProtestantEvents(EventRegistry& r); // model/events/protestant.cpp

} // namespace wp::rules
