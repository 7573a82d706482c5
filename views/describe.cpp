#include "describe.h"

#include "rules/economy.h"
#include "rules/events.h"
#include "rules/internal.h"

namespace wp {

using namespace rules;

QString unitName(const GameData& d, const GameState& s, int unit) {
    if (unit < 0 || unit >= static_cast<int>(s.units.size()))
        return QStringLiteral("unit %1").arg(unit);
    const UnitState& u = s.units[static_cast<size_t>(unit)];
    const UnitType& t = d.unitTypes[u.type];
    QString kind = unitKindId(t.kind);
    if (!kind.isEmpty())
        kind[0] = kind[0].toUpper();
    return QStringLiteral("%1 %2%3").arg(d.nationalities[t.nationality].name, kind,
                                         u.steps == 1 ? QStringLiteral(" (reduced)") : QString());
}

QString describePiece(const GameData& d, const GameState& s, int piece) {
    if (isLeaderPiece(static_cast<int16_t>(piece)))
        return d.leaders[piece - kLeaderBase].name;
    return unitName(d, s, piece);
}

QString locName(const GameData& d, int loc) {
    if (loc == -2)
        return QStringLiteral("inside the fortress");
    return cityName(d, loc);
}

int cardAid(const GameData& d, const GameState& s, int side, int card) {
    int total = 0;
    const Card& cd = d.cards[card];
    for (auto it = cd.aid.begin(); it != cd.aid.end(); ++it)
        if (s.aidSources[side].contains(it.key()))
            total += it.value();
    return total;
}

ChoiceTarget choiceTarget(const GameState& s) {
    if (s.frames.empty())
        return ChoiceTarget::Other;
    if (std::holds_alternative<TurnFrame>(s.frames.back()))
        return ChoiceTarget::Card;
    if (std::holds_alternative<SiegeFrame>(s.frames.back()))
        return ChoiceTarget::Unit;
    if (const auto* ch = std::get_if<ChoiceFrame>(&s.frames.back())) {
        if (ch->purpose == kChooseForage)
            return ch->data < 0 ? ChoiceTarget::City : ChoiceTarget::Unit;
        if (ch->purpose == kChooseOverstack)
            return ChoiceTarget::Unit;
        if (ch->purpose == kChooseDiscard)
            return ChoiceTarget::Card;
        if (ch->purpose >= kChooseEconomyBase && ch->purpose < kChooseEventBase) // as the notation reads them
            switch (economyTargetKind(*ch)) {
            case 1:
                return ChoiceTarget::City;
            case 2:
                return ChoiceTarget::Unit;
            case 3:
                return ChoiceTarget::Leader;
            default:
                break;
            }
    }
    return ChoiceTarget::Other;
}

QString unitAt(const GameData& d, const GameState& s, int unit) {
    return QStringLiteral("%1 at %2")
        .arg(unitName(d, s, unit), unit >= 0 && unit < static_cast<int>(s.units.size())
                                       ? cityName(d, s.units[static_cast<size_t>(unit)].loc)
                                       : QStringLiteral("?"));
}

namespace {

// The economy decisions (recruitment, pay, loot, recovery, revolts, peace, Wallenstein: rules/economy.h) in
// words; "" when the choice is only a city, unit or leader (named by the caller).
QString economyWords(const GameData& d, const GameState& s, const ChoiceFrame& f, const Action& a) {
    auto plural = [](int n, const char* one, const char* many) {
        return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
    };
    switch (f.purpose) {
    case kRecruitLeader:
        if (a.target >= kLeaderBase && a.target - kLeaderBase < static_cast<int>(d.leaders.size()))
            return QStringLiteral("%1 recruits (8.4)").arg(d.leaders[a.target - kLeaderBase].name);
        break;
    case kRecruitKind:
        return a.target == 1 ? QStringLiteral("Recruit Mercenaries (8.41)")
                             : QStringLiteral("Recruit Militia (8.41)");
    case kRecruitSteps:
        return a.target == 0 ? QStringLiteral("No unit at full strength: all reduced (8.411)")
                             : QStringLiteral("%1 at full strength, the rest reduced (8.411)")
                                   .arg(plural(a.target, "unit", "units"));
    case kRecruitAp:
        return a.target == 1 ? QStringLiteral("Spend 1 Aid Point: no -1 to the roll (19.4b)")
                             : QStringLiteral("Keep the Aid Point (19.4b)");
    case kPayUnits:
        return QStringLiteral("Pay %1 (15.13)").arg(unitAt(d, s, a.target));
    case kStepLoss:
        return QStringLiteral("%1 loses a step (15.223)").arg(unitAt(d, s, a.target));
    case kRecoverPillage:
        return QStringLiteral("Recover a Pillage level at %1 (15.25)").arg(cityName(d, a.target));
    case kWallensteinRecall:
        return QStringLiteral("Wallenstein joins the army at %1 (7.22)").arg(cityName(d, a.target));
    case kRevoltSpread:
        return QStringLiteral("The revolt spreads to %1 (9.44)").arg(cityName(d, a.target));
    case kSetupPillage:
        return QStringLiteral("Pillage %1").arg(cityName(d, a.target));
    case kPeaceWithdraw:
        if (a.target >= kAreaCode && a.target - kAreaCode < static_cast<int>(d.areas.size()))
            return QStringLiteral("Withdraw from %1 (5.32)").arg(d.areas[a.target - kAreaCode].name);
        return QStringLiteral("Withdraw from %1 (5.32)").arg(cityName(d, a.target));
    default:
        break;
    }
    return {};
}

} // namespace

ChoiceTarget choiceTarget(const GameData& d, const GameState& s) {
    const auto* ch = s.frames.empty() ? nullptr : std::get_if<ChoiceFrame>(&s.frames.back());
    if (!ch || ch->purpose < kChooseEventBase)
        return choiceTarget(s);
    switch (eventChoiceInfo(d, s, *ch).option) {
    case EventOption::City:
        return ChoiceTarget::City;
    case EventOption::Unit:
        return ChoiceTarget::Unit;
    case EventOption::Leader:
    case EventOption::LeaderOrCity:
        return ChoiceTarget::Leader;
    case EventOption::Number:
        break;
    }
    return ChoiceTarget::Other;
}

QString describeAction(const GameData& d, const GameState& s, const Action& a) {
    const Frame* top = s.frames.empty() ? nullptr : &s.frames.back();
    auto pieces = [&](const std::vector<int16_t>& list) {
        QStringList out;
        for (int16_t p : list)
            out << describePiece(d, s, p);
        return out.join(QStringLiteral(", "));
    };
    switch (a.kind) {
    case ActionKind::Pass:
        if (top && std::holds_alternative<CombatFrame>(*top))
            return QStringLiteral("No (more) combat cards");
        if (top && std::holds_alternative<TurnFrame>(*top)) {
            const auto& t = std::get<TurnFrame>(*top);
            if (t.phase == Phase::EndOfTurn)
                return QStringLiteral("Keep my card");
            if (t.phase == Phase::Wallenstein)
                return QStringLiteral("Leave Wallenstein as he is");
            if (t.phase == Phase::Action)
                return QStringLiteral("Pass (nothing can be done)");
        }
        return QStringLiteral("Pass");
    case ActionKind::PlayCard: {
        const Card& cd = d.cards[a.card];
        switch (a.use) {
        case CardUse::Act: {
            const LeaderState& ls = s.leaders[static_cast<size_t>(a.target)];
            return QStringLiteral("Activate %1 at %2")
                .arg(d.leaders[a.target].counterName, cityName(d, ls.loc));
        }
        case CardUse::Rec:
            return QStringLiteral("Recruit (REC)");
        case CardUse::Aid:
            return QStringLiteral("Foreign Aid: +%1 AP").arg(cardAid(d, s, sideIndex(cd.side), a.card));
        case CardUse::Event:
            return QStringLiteral("Event: %1").arg(cd.title);
        case CardUse::Dutch:
            return QStringLiteral("Push the Dutch War marker (19.5)");
        case CardUse::Enemies:
            return QStringLiteral("Discard: Wallenstein's Enemies (19.11)");
        }
        return cd.title;
    }
    case ActionKind::FreeAction: {
        if (a.target == kFreeSwedishBase && !a.list.empty())
            return QStringLiteral("Move the Swedish Base to %1 (17.Sw.1)").arg(cityName(d, a.list.front()));
        const int p = a.target;
        const int loc = isLeaderPiece(static_cast<int16_t>(p))
                            ? s.leaders[static_cast<size_t>(p - kLeaderBase)].loc
                            : s.units[static_cast<size_t>(p)].loc;
        return QStringLiteral("%1 at %2").arg(describePiece(d, s, p), cityName(d, loc));
    }
    case ActionKind::OfferPeace:
        return QStringLiteral("Offer peace (5.3)");
    case ActionKind::Move:
        return QStringLiteral("Move to %1").arg(cityName(d, a.target));
    case ActionKind::PickUp:
        return QStringLiteral("Pick up %1").arg(pieces(a.list));
    case ActionKind::DropOff:
        return QStringLiteral("Drop off %1").arg(pieces(a.list));
    case ActionKind::TakeControl: {
        int at = -1;
        if (top)
            if (const auto* f = std::get_if<ActivationFrame>(top))
                at = f->at;
        return at >= 0 ? QStringLiteral("Take control of %1 (1 MP)").arg(cityName(d, at))
                       : QStringLiteral("Take control (1 MP)");
    }
    case ActionKind::Attack: {
        std::vector<int> units(a.list.begin(), a.list.end());
        return QStringLiteral("Attack with %1 unit%2 (%3 CF)")
            .arg(units.size())
            .arg(units.size() == 1 ? "" : "s")
            .arg(cfSum(d, s, units));
    }
    case ActionKind::Overrun:
        return QStringLiteral("Overrun (12.6)");
    case ActionKind::Besiege:
        return QStringLiteral("Establish a siege (13.1)");
    case ActionKind::Assault:
        return QStringLiteral("Siege combat (13.2)…");
    case ActionKind::EndActivation:
        return QStringLiteral("End the activation");
    case ActionKind::React:
        return a.target == 1 ? QStringLiteral("Withdraw inside the fortress")
                             : QStringLiteral("Stay outside and fight");
    case ActionKind::CombatCard:
        return QStringLiteral("Play %1 “%2”").arg(d.cards[a.card].id, d.cards[a.card].title);
    case ActionKind::Losses: {
        if (a.list.empty())
            return QStringLiteral("No losses");
        QStringList elim, red;
        int total = 0;
        for (size_t i = 0; i < a.list.size(); ++i) {
            const int u = a.list[i];
            const UnitState& us = s.units[static_cast<size_t>(u)];
            total += a.counts[i] * unitLf(d, s, u);
            (a.counts[i] >= us.steps ? elim : red) << unitName(d, s, u).remove(QStringLiteral(" (reduced)"));
        }
        QStringList parts;
        if (!elim.isEmpty())
            parts << QStringLiteral("eliminate %1").arg(elim.join(QStringLiteral(", ")));
        if (!red.isEmpty())
            parts << QStringLiteral("reduce %1").arg(red.join(QStringLiteral(", ")));
        QString t = parts.join(QStringLiteral("; "));
        t[0] = t[0].toUpper();
        return QStringLiteral("%1 — %2 loss points").arg(t).arg(total);
    }
    case ActionKind::Retreat:
        if (a.target == -2)
            return QStringLiteral("Retreat inside the fortress");
        if (a.target == -1)
            return QStringLiteral("No retreat possible: the units are eliminated");
        return QStringLiteral("Retreat to %1").arg(cityName(d, a.target));
    case ActionKind::Choose:
        if (top && std::holds_alternative<CombatFrame>(*top)) { // issue 12: the linked-battle decisions
            const auto& f = std::get<CombatFrame>(*top);
            switch (a.target) {
            case kBattleCrt:
                return QStringLiteral("Keep the Combat Results Table (12.26)");
            case kBattleTvbd:
                return QStringLiteral("Ask for the table: Tilly's Very Bad Day");
            case kBattleTercios:
                return QStringLiteral("Ask for the table: Brevis Editio Tercios");
            case kBattleAccept:
                return QStringLiteral("Accept: fight it on the table");
            case kBattleDecline:
                return QStringLiteral("Decline: the Combat Results Table decides");
            case kBattleConfirm:
                return QStringLiteral("Confirm the result");
            case kBattleDispute:
                return QStringLiteral("Dispute it (the attacker enters it again)");
            case kBattleLeadersDone:
                return QStringLiteral("No more leaders lost");
            case kBattleWonByAttacker:
            case kBattleWonByDefender:
                if (a.counts.size() == 2)
                    return QStringLiteral(
                               "The %1 holds the field; Loss Number %2 for the attacker, %3 for the "
                               "defender")
                        .arg(sideName(a.target == kBattleWonByAttacker ? f.attacker : 1 - f.attacker))
                        .arg(a.counts[0])
                        .arg(a.counts[1]);
                break;
            default:
                if (a.target >= kLeaderBase && a.target - kLeaderBase < d.leaders.size())
                    return QStringLiteral("%1 was lost on the table")
                        .arg(d.leaders[a.target - kLeaderBase].name);
                break;
            }
        }
        if (const auto* ch = top ? std::get_if<ChoiceFrame>(top) : nullptr;
            ch && ch->purpose >= kChooseEconomyBase && ch->purpose < kChooseEventBase) {
            const QString words = economyWords(d, s, *ch, a);
            if (!words.isEmpty())
                return words;
        }
        switch (choiceTarget(d, s)) {
        case ChoiceTarget::City:
            return cityName(d, a.target);
        case ChoiceTarget::Leader: // an event's choice: a leader, or (16.22) a city
            if (a.target >= kLeaderBase && a.target - kLeaderBase < d.leaders.size())
                return d.leaders[a.target - kLeaderBase].name;
            return cityName(d, a.target);
        case ChoiceTarget::Unit:
            return unitName(d, s, a.target);
        case ChoiceTarget::Card:
            if (top && std::holds_alternative<TurnFrame>(*top))
                return QStringLiteral("Discard %1 “%2”").arg(d.cards[a.target].id, d.cards[a.target].title);
            return QStringLiteral("%1 “%2”").arg(d.cards[a.target].id, d.cards[a.target].title);
        case ChoiceTarget::Other:
            break;
        }
        return formatAction(d, s, a);
    case ActionKind::Wallenstein:
        return a.target == 0   ? QStringLiteral("Dismiss Wallenstein (7.21)")
               : a.target == 1 ? QStringLiteral("Recall Wallenstein (7.22)")
                               : QStringLiteral("Assassinate Wallenstein (7.23)");
    case ActionKind::Accept:
        return QStringLiteral("Accept the peace offer");
    case ActionKind::Decline:
        return QStringLiteral("Decline the peace offer");
    }
    return formatAction(d, s, a);
}

} // namespace wp
