// An action: one decision of one player. The engine lists the legal ones; UI, CLI, AI, saves and fuzzers
// only ever choose among them. Every action has a one-line text notation (docs/actions.md) used by the CLI
// and by save files.
#pragma once

#include "data/gamedata.h"
#include "rules/state.h"

#include <QString>
#include <cstdint>
#include <optional>
#include <vector>

namespace wp::rules {

enum class ActionKind : uint8_t {
    Pass,          // "pass": decline / done (context: no reaction, no more combat cards, keep all cards...)
    PlayCard,      // "play C7 event" | "play P3 act mansfeld" | "play C5 rec" | "play P9 aid"
    FreeAction,    // "free u12" | "free mansfeld" (8.32)
    OfferPeace,    // "peace" (8.323, 5.3)
    Move,          // "move leipzig" (11.1) or "move up" (a box)
    PickUp,        // "pickup u3 u4 tilly" (11.15)
    DropOff,       // "dropoff u3 pappenheim" (11.14)
    TakeControl,   // "control" (3.11, 11.17: one extra MP)
    Attack,        // "attack u1 u2 u3" (12.13: the attacking units)
    Overrun,       // "overrun" (12.6)
    Besiege,       // "besiege" (13.11)
    Assault,       // "assault" (13.21: siege combat in an activation)
    EndActivation, // "end"
    React,         // "react in" | "react out" (11.23)
    CombatCard,    // "card P13" (12.23)
    Losses,        // "losses u3:1 u4:2" (12.31: steps removed per unit)
    Retreat,       // "retreat torgau" | "retreat inside" (12.52-12.54)
    Choose,        // "choose <id> ..." a generic choice (events, foraging cities, discards)
    Wallenstein,   // "wallenstein dismiss|recall|assassinate" (7.2)
    Accept,        // "accept" / "decline" a peace offer
    Decline,
};

struct Action {
    ActionKind kind = ActionKind::Pass;
    int16_t card = -1; // card index
    CardUse use = CardUse::Act;
    int16_t target = -1;        // leader, city, box (kBoxBase+), option ...
    std::vector<int16_t> list;  // pieces (units >= 0; leaders encoded as kLeaderBase + index) or ids
    std::vector<int8_t> counts; // with Losses: steps per unit in `list`
    bool operator==(const Action&) const = default;
};

constexpr int16_t kLeaderBase = 20000; // a piece id >= kLeaderBase is a leader
// FreeAction target: the Free Action that moves the Swedish Base (17.Sw.1) to the city in `list`.
constexpr int16_t kFreeSwedishBase = -2;
inline bool isLeaderPiece(int16_t p) {
    return p >= kLeaderBase;
}

// Text notation, both ways. parse() returns std::nullopt and sets *error on malformed text; it checks
// form and names only, legality is the engine's job.
QString formatAction(const GameData& d, const GameState& s, const Action& a);
std::optional<Action> parseAction(const GameData& d, const GameState& s, const QString& text, QString* error);

// An attachment (docs/actions.md "Attachments"): the text of a "battle-result" action may end with a word
// "@" + base64url characters — the evidence of where the result comes from (a linked battle's record,
// docs/linked-battles.md "The battle's record"). The engine neither reads nor needs it: parseAction checks
// its form and drops it, and the Action is the same with or without it. The record is checked by its own
// verifier (battle::checkAttachedResult) wherever a game is replayed from others' files.
// splitAttachment returns the text without the attachment and puts the attachment (without the "@") in
// *attachment ("" when there is none).
QString splitAttachment(const QString& text, QString* attachment);
// Whether `attachment` (without the "@") is well formed for action `a`: only "battle-result" takes one, of
// base64url characters (A-Z a-z 0-9 - _), at most kMaxAttachment of them. *error says why not.
constexpr qsizetype kMaxAttachment = 4 * 1024 * 1024;
bool attachmentAllowed(const Action& a, const QString& attachment, QString* error);

QString pieceName(const GameData& d, const GameState& s, int16_t piece); // "u12" or a leader id
QString unitLabel(const GameData& d, const GameState& s, int unit);      // "Swedish Veteran (u12)"

} // namespace wp::rules
