#include "rules/action.h"

#include "rules/economy.h"
#include "rules/events.h"
#include "rules/internal.h"

#include <QRegularExpression>

namespace wp::rules {

QString pieceName(const GameData& d, const GameState&, int16_t piece) {
    if (isLeaderPiece(piece))
        return d.leaders[piece - kLeaderBase].id;
    return QStringLiteral("u%1").arg(piece);
}

QString unitLabel(const GameData& d, const GameState& s, int unit) {
    const UnitState& u = s.units[unit];
    const UnitType& t = d.unitTypes[u.type];
    QString kind = unitKindId(t.kind);
    kind[0] = kind[0].toUpper();
    return QStringLiteral("%1 %2%3 (u%4)")
        .arg(d.nationalities[t.nationality].name, kind,
             u.steps == 1 ? QStringLiteral(", reduced") : QString())
        .arg(unit);
}

namespace {

QString locId(const GameData& d, int loc) {
    if (isBox(static_cast<int16_t>(loc)) && loc - kBoxBase < d.boxes.size()) // unchecked actions too
        return d.boxes[loc - kBoxBase].id;
    if (loc >= 0 && loc < kBoxBase && loc < d.cities.size())
        return d.cities[loc].id;
    return QStringLiteral("?");
}

// What a Choose target means depends on the decision on top of the stack.
enum class ChooseKind { City, Unit, Card, Leader, LeaderOrCity, Other };
ChooseKind chooseKind(const GameData& d, const GameState& s) {
    if (s.frames.empty())
        return ChooseKind::Other;
    if (std::holds_alternative<TurnFrame>(s.frames.back()))
        return ChooseKind::Card; // end-of-turn discard
    if (const auto* ch = std::get_if<ChoiceFrame>(&s.frames.back())) {
        if (ch->purpose == kChooseForage)
            return ch->data < 0 ? ChooseKind::City : ChooseKind::Unit;
        if (ch->purpose == kChooseOverstack)
            return ChooseKind::Unit;
        if (ch->purpose == kChooseDiscard)
            return ChooseKind::Card;
        if (ch->purpose >= kChooseEventBase) { // a card event's own choice (issue 5)
            switch (eventChoiceInfo(d, s, *ch).option) {
            case EventOption::City:
                return ChooseKind::City;
            case EventOption::Unit:
                return ChooseKind::Unit;
            case EventOption::Leader:
                return ChooseKind::Leader;
            case EventOption::LeaderOrCity:
                return ChooseKind::LeaderOrCity;
            case EventOption::Number:
                return ChooseKind::Other;
            }
        }
        if (ch->purpose >= 100 && ch->purpose < kChooseEventBase) { // the economy's decisions (economy.h)
            switch (economyTargetKind(*ch)) {
            case 1:
                return ChooseKind::City;
            case 2:
                return ChooseKind::Unit;
            case 3:
                return ChooseKind::Leader;
            default:
                return ChooseKind::Other;
            }
        }
    }
    return ChooseKind::Other;
}

// Issue 12: the linked-battle decisions (Choose actions whose target is a kBattle* code, state.h).
QString battleChoiceText(const GameData& d, const Action& a) {
    switch (a.target) {
    case kBattleCrt:
        return QStringLiteral("battle crt");
    case kBattleTvbd:
        return QStringLiteral("battle tvbd");
    case kBattleTercios:
        return QStringLiteral("battle tercios");
    case kBattleAccept:
        return QStringLiteral("battle accept");
    case kBattleDecline:
        return QStringLiteral("battle decline");
    case kBattleConfirm:
        return QStringLiteral("battle confirm");
    case kBattleDispute:
        return QStringLiteral("battle dispute");
    case kBattleLeadersDone:
        return QStringLiteral("battle-leader done");
    case kBattleWonByAttacker:
    case kBattleWonByDefender:
        if (a.counts.size() == 2)
            return QStringLiteral("battle-result %1 %2 %3")
                .arg(a.target == kBattleWonByAttacker ? "attacker" : "defender")
                .arg(a.counts[0])
                .arg(a.counts[1]);
        break;
    default:
        if (a.target >= kLeaderBase && a.target - kLeaderBase < d.leaders.size())
            return QStringLiteral("battle-leader %1").arg(d.leaders[a.target - kLeaderBase].id);
        break;
    }
    return QStringLiteral("choose %1").arg(a.target);
}

} // namespace

QString formatAction(const GameData& d, const GameState& s, const Action& a) {
    auto pieces = [&]() {
        QStringList p;
        for (int16_t x : a.list)
            p << pieceName(d, s, x);
        return p.join(QLatin1Char(' '));
    };
    switch (a.kind) {
    case ActionKind::Pass:
        return QStringLiteral("pass");
    case ActionKind::PlayCard: {
        QString t = QStringLiteral("play %1 %2").arg(d.cards[a.card].id, cardUseName(a.use));
        if (a.use == CardUse::Act)
            t += QLatin1Char(' ') + d.leaders[a.target].id;
        return t;
    }
    case ActionKind::FreeAction:
        if (a.target == kFreeSwedishBase && !a.list.empty())
            return QStringLiteral("free swedish-base %1").arg(locId(d, a.list.front()));
        return QStringLiteral("free %1").arg(pieceName(d, s, a.target));
    case ActionKind::OfferPeace:
        return QStringLiteral("peace");
    case ActionKind::Move:
        return QStringLiteral("move %1").arg(locId(d, a.target));
    case ActionKind::PickUp:
        return QStringLiteral("pickup %1").arg(pieces());
    case ActionKind::DropOff:
        return QStringLiteral("dropoff %1").arg(pieces());
    case ActionKind::TakeControl:
        return QStringLiteral("control");
    case ActionKind::Attack:
        return QStringLiteral("attack %1").arg(pieces());
    case ActionKind::Overrun:
        return QStringLiteral("overrun");
    case ActionKind::Besiege:
        return QStringLiteral("besiege");
    case ActionKind::Assault:
        return QStringLiteral("assault");
    case ActionKind::EndActivation:
        return QStringLiteral("end");
    case ActionKind::React:
        return a.target == 1 ? QStringLiteral("react in") : QStringLiteral("react out");
    case ActionKind::CombatCard:
        return QStringLiteral("card %1").arg(d.cards[a.card].id);
    case ActionKind::Losses: {
        if (a.list.empty())
            return QStringLiteral("losses none");
        QStringList p;
        for (size_t i = 0; i < a.list.size(); ++i)
            p << QStringLiteral("u%1:%2").arg(a.list[i]).arg(a.counts[i]);
        return QStringLiteral("losses %1").arg(p.join(QLatin1Char(' ')));
    }
    case ActionKind::Retreat:
        return a.target == -2 ? QStringLiteral("retreat inside")
                              : QStringLiteral("retreat %1").arg(locId(d, a.target));
    case ActionKind::Choose:
        if (!s.frames.empty() && std::holds_alternative<CombatFrame>(s.frames.back()))
            return battleChoiceText(d, a); // issue 12
        switch (chooseKind(d, s)) {
        case ChooseKind::City:
            return QStringLiteral("choose %1").arg(locId(d, a.target));
        case ChooseKind::Unit:
            return QStringLiteral("choose u%1").arg(a.target);
        case ChooseKind::Card:
            if (a.target >= 0 && a.target < d.cards.size()) // formatAction also names unchecked actions
                return QStringLiteral("choose %1").arg(d.cards[a.target].id);
            break;
        case ChooseKind::Leader:
        case ChooseKind::LeaderOrCity:
            if (a.target >= kLeaderBase && a.target - kLeaderBase < d.leaders.size())
                return QStringLiteral("choose %1").arg(d.leaders[a.target - kLeaderBase].id);
            if (chooseKind(d, s) == ChooseKind::LeaderOrCity)
                return QStringLiteral("choose %1").arg(locId(d, a.target));
            break;
        case ChooseKind::Other:
            break;
        }
        return QStringLiteral("choose %1").arg(a.target);
    case ActionKind::Wallenstein:
        return QStringLiteral("wallenstein %1")
            .arg(a.target == 0   ? "dismiss"
                 : a.target == 1 ? "recall"
                                 : "assassinate");
    case ActionKind::Accept:
        return QStringLiteral("accept");
    case ActionKind::Decline:
        return QStringLiteral("decline");
    }
    return QStringLiteral("?");
}

QString splitAttachment(const QString& text, QString* attachment) {
    const QString t = text.trimmed();
    const qsizetype at = t.lastIndexOf(QLatin1Char(' '));
    if (at < 0 || at + 1 >= t.size() || t[at + 1] != QLatin1Char('@')) {
        attachment->clear();
        return text;
    }
    *attachment = t.mid(at + 2);
    return t.left(at);
}

bool attachmentAllowed(const Action& a, const QString& attachment, QString* error) {
    if (a.kind != ActionKind::Choose ||
        (a.target != kBattleWonByAttacker && a.target != kBattleWonByDefender)) {
        *error = QStringLiteral("only 'battle-result' takes an attachment (@...)");
        return false;
    }
    if (attachment.isEmpty() || attachment.size() > kMaxAttachment) {
        *error = QStringLiteral("an attachment is '@' and 1 to %1 base64url characters").arg(kMaxAttachment);
        return false;
    }
    for (const QChar c : attachment)
        if (!(c.isLetterOrNumber() && c.unicode() < 128) && c != QLatin1Char('-') && c != QLatin1Char('_')) {
            *error =
                QStringLiteral("the attachment has a character '%1' that is not base64url (A-Z a-z 0-9 - _)")
                    .arg(c);
            return false;
        }
    return true;
}

std::optional<Action> parseAction(const GameData& d, const GameState& s, const QString& fullText,
                                  QString* error) {
    auto fail = [&](const QString& why) -> std::optional<Action> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    QString attachment;
    const QString text = splitAttachment(fullText, &attachment);
    if (!attachment.isEmpty()) { // the evidence of a table result: its form only (the engine ignores it)
        auto a = parseAction(d, s, text, error);
        QString why;
        if (a && !attachmentAllowed(*a, attachment, &why))
            return fail(why);
        return a;
    }
    const QStringList w = text.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (w.isEmpty())
        return fail(QStringLiteral("empty action"));
    static const QRegularExpression unitRe(QStringLiteral("^u(\\d+)$"));
    auto piece = [&](const QString& t, int16_t* out) {
        auto m = unitRe.match(t);
        if (m.hasMatch()) {
            const int u = m.captured(1).toInt();
            if (u < 0 || u >= static_cast<int>(s.units.size()))
                return false;
            *out = static_cast<int16_t>(u);
            return true;
        }
        const int l = d.leader(t);
        if (l < 0)
            return false;
        *out = static_cast<int16_t>(kLeaderBase + l);
        return true;
    };
    auto loc = [&](const QString& t, int16_t* out) {
        const int c = d.city(t);
        if (c >= 0) {
            *out = static_cast<int16_t>(c);
            return true;
        }
        const int b = d.box(t);
        if (b >= 0) {
            *out = static_cast<int16_t>(kBoxBase + b);
            return true;
        }
        return false;
    };
    Action a;
    const QString& verb = w[0];
    auto needArgs = [&](int n) { return w.size() >= n + 1; };
    if (verb == QLatin1String("pass")) {
        a.kind = ActionKind::Pass;
    } else if (verb == QLatin1String("play")) {
        if (!needArgs(2))
            return fail(
                QStringLiteral("'play' needs a card and a use: play C7 event | play P3 act mansfeld"));
        a.kind = ActionKind::PlayCard;
        a.card = static_cast<int16_t>(d.card(w[1]));
        if (a.card < 0)
            return fail(QStringLiteral("unknown card '%1'").arg(w[1]));
        const QString use = w[2];
        if (use == QLatin1String("act")) {
            a.use = CardUse::Act;
            if (!needArgs(3))
                return fail(QStringLiteral("'play %1 act' needs the leader to activate").arg(w[1]));
            a.target = static_cast<int16_t>(d.leader(w[3]));
            if (a.target < 0)
                return fail(QStringLiteral("unknown leader '%1'").arg(w[3]));
        } else if (use == QLatin1String("rec")) {
            a.use = CardUse::Rec;
        } else if (use == QLatin1String("aid")) {
            a.use = CardUse::Aid;
        } else if (use == QLatin1String("event")) {
            a.use = CardUse::Event;
        } else if (use == QLatin1String("dutch")) {
            a.use = CardUse::Dutch;
        } else if (use == QLatin1String("enemies")) {
            a.use = CardUse::Enemies;
        } else {
            return fail(
                QStringLiteral("unknown card use '%1' (act, rec, aid, event, dutch, enemies)").arg(use));
        }
    } else if (verb == QLatin1String("free") && w.size() >= 2 && w[1] == QLatin1String("swedish-base")) {
        // 17.Sw.1: the Free Action that moves the Swedish Base
        int16_t city = -1;
        if (!needArgs(2) || !loc(w[2], &city))
            return fail(QStringLiteral("'free swedish-base' needs a city id"));
        a.kind = ActionKind::FreeAction;
        a.target = kFreeSwedishBase;
        a.list = {city};
    } else if (verb == QLatin1String("free")) {
        if (!needArgs(1) || !piece(w[1], &a.target))
            return fail(QStringLiteral("'free' needs a unit (u12), a leader id or 'swedish-base CITY'"));
        a.kind = ActionKind::FreeAction;
    } else if (verb == QLatin1String("peace")) {
        a.kind = ActionKind::OfferPeace;
    } else if (verb == QLatin1String("move")) {
        if (!needArgs(1) || !loc(w[1], &a.target))
            return fail(QStringLiteral("'move' needs a city id"));
        a.kind = ActionKind::Move;
    } else if (verb == QLatin1String("pickup") || verb == QLatin1String("dropoff") ||
               verb == QLatin1String("attack")) {
        a.kind = verb == QLatin1String("pickup")    ? ActionKind::PickUp
                 : verb == QLatin1String("dropoff") ? ActionKind::DropOff
                                                    : ActionKind::Attack;
        if (!needArgs(1))
            return fail(QStringLiteral("'%1' needs pieces (u12, tilly)").arg(verb));
        for (int i = 1; i < w.size(); ++i) {
            int16_t p;
            if (!piece(w[i], &p))
                return fail(QStringLiteral("unknown piece '%1'").arg(w[i]));
            a.list.push_back(p);
        }
    } else if (verb == QLatin1String("control")) {
        a.kind = ActionKind::TakeControl;
    } else if (verb == QLatin1String("overrun")) {
        a.kind = ActionKind::Overrun;
    } else if (verb == QLatin1String("besiege")) {
        a.kind = ActionKind::Besiege;
    } else if (verb == QLatin1String("assault")) {
        a.kind = ActionKind::Assault;
    } else if (verb == QLatin1String("end")) {
        a.kind = ActionKind::EndActivation;
    } else if (verb == QLatin1String("react")) {
        if (!needArgs(1) || (w[1] != QLatin1String("in") && w[1] != QLatin1String("out")))
            return fail(QStringLiteral("'react' needs 'in' or 'out'"));
        a.kind = ActionKind::React;
        a.target = w[1] == QLatin1String("in") ? 1 : 0;
    } else if (verb == QLatin1String("card")) {
        if (!needArgs(1) || (a.card = static_cast<int16_t>(d.card(w[1]))) < 0)
            return fail(QStringLiteral("'card' needs a card id"));
        a.kind = ActionKind::CombatCard;
    } else if (verb == QLatin1String("losses")) {
        a.kind = ActionKind::Losses;
        if (!needArgs(1))
            return fail(QStringLiteral("'losses' needs u12:1 ... or 'none'"));
        if (w[1] != QLatin1String("none")) {
            static const QRegularExpression re(QStringLiteral("^u(\\d+):([12])$"));
            for (int i = 1; i < w.size(); ++i) {
                auto m = re.match(w[i]);
                if (!m.hasMatch())
                    return fail(QStringLiteral("'%1' is not unit:steps (u12:1)").arg(w[i]));
                a.list.push_back(static_cast<int16_t>(m.captured(1).toInt()));
                a.counts.push_back(static_cast<int8_t>(m.captured(2).toInt()));
            }
        }
    } else if (verb == QLatin1String("retreat")) {
        a.kind = ActionKind::Retreat;
        if (needArgs(1) && w[1] == QLatin1String("inside"))
            a.target = -2;
        else if (!needArgs(1) || !loc(w[1], &a.target))
            return fail(QStringLiteral("'retreat' needs a city id or 'inside'"));
    } else if (verb == QLatin1String("battle")) {
        // issue 12: "battle crt|tvbd|tercios|accept|decline|confirm|dispute"
        static const QStringList words{"crt", "tvbd", "tercios", "accept", "decline", "confirm", "dispute"};
        const int i = needArgs(1) && w.size() == 2 ? static_cast<int>(words.indexOf(w[1])) : -1;
        if (i < 0)
            return fail(QStringLiteral("'battle' needs one of crt, tvbd, tercios, accept, decline, confirm, "
                                       "dispute"));
        a.kind = ActionKind::Choose;
        a.target = static_cast<int16_t>(kBattleCrt - i);
    } else if (verb == QLatin1String("battle-result")) {
        // issue 12: "battle-result attacker|defender LA LD" (the winner, then the Loss Number the attacker
        // and the defender take)
        bool okA = false, okD = false;
        const int la = w.size() == 4 ? w[2].toInt(&okA) : -1;
        const int ld = w.size() == 4 ? w[3].toInt(&okD) : -1;
        if (w.size() != 4 || (w[1] != QLatin1String("attacker") && w[1] != QLatin1String("defender")) ||
            !okA || !okD || la < 0 || ld < 0 || la > 99 || ld > 99)
            return fail(QStringLiteral("'battle-result' needs the winner (attacker or defender) and two Loss "
                                       "Numbers 0-99: battle-result attacker 3 1"));
        a.kind = ActionKind::Choose;
        a.target = w[1] == QLatin1String("attacker") ? kBattleWonByAttacker : kBattleWonByDefender;
        a.counts = {static_cast<int8_t>(la), static_cast<int8_t>(ld)};
    } else if (verb == QLatin1String("battle-leader")) {
        // issue 12: "battle-leader ID" (a leader lost on the table) | "battle-leader done"
        if (w.size() != 2)
            return fail(QStringLiteral("'battle-leader' needs a leader id or 'done'"));
        a.kind = ActionKind::Choose;
        if (w[1] == QLatin1String("done"))
            a.target = kBattleLeadersDone;
        else if (d.leader(w[1]) >= 0)
            a.target = static_cast<int16_t>(kLeaderBase + d.leader(w[1]));
        else
            return fail(QStringLiteral("unknown leader '%1'").arg(w[1]));
    } else if (verb == QLatin1String("choose")) {
        if (!needArgs(1))
            return fail(QStringLiteral("'choose' needs an option"));
        a.kind = ActionKind::Choose;
        int16_t p;
        bool ok = false;
        const int n = w[1].toInt(&ok);
        if (ok)
            a.target = static_cast<int16_t>(n);
        else if (unitRe.match(w[1]).hasMatch() && piece(w[1], &p))
            a.target = p;
        else if (d.card(w[1]) >= 0)
            a.target = static_cast<int16_t>(d.card(w[1]));
        else if (loc(w[1], &p))
            a.target = p;
        else if (d.leader(w[1]) >= 0)
            a.target = static_cast<int16_t>(kLeaderBase + d.leader(w[1]));
        else
            return fail(QStringLiteral("unknown option '%1'").arg(w[1]));
    } else if (verb == QLatin1String("wallenstein")) {
        a.kind = ActionKind::Wallenstein;
        static const QStringList opts{"dismiss", "recall", "assassinate"};
        a.target = static_cast<int16_t>(needArgs(1) ? opts.indexOf(w[1]) : -1);
        if (a.target < 0)
            return fail(QStringLiteral("'wallenstein' needs dismiss, recall or assassinate"));
    } else if (verb == QLatin1String("accept")) {
        a.kind = ActionKind::Accept;
    } else if (verb == QLatin1String("decline")) {
        a.kind = ActionKind::Decline;
    } else {
        return fail(QStringLiteral("unknown action '%1'").arg(verb));
    }
    return a;
}

} // namespace wp::rules
