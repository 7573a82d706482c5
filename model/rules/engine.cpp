#include "rules/engine.h"

#include "rules/economy.h"
#include "rules/events.h"
#include "rules/internal.h"

#include <QJsonArray>

#include <algorithm>

namespace wp::rules {

QString combatTablePrompt(const GameData& d, const GameState& s, const CombatFrame& f); // combat.cpp

namespace {

int combatActorOf(const GameState& s, const CombatFrame& f);
int siegeActorOf(const GameState& s, const SiegeFrame& f);

std::vector<Action> frameLegal(const Ctx& c) {
    const Frame& f = c.s.frames.back();
    if (const auto* t = std::get_if<TurnFrame>(&f))
        return turnLegal(c, *t);
    if (const auto* a = std::get_if<ActivationFrame>(&f))
        return activationLegal(c, *a);
    if (const auto* cb = std::get_if<CombatFrame>(&f))
        return combatLegal(c, *cb);
    if (const auto* sg = std::get_if<SiegeFrame>(&f))
        return siegeLegal(c, *sg);
    return choiceLegal(c, std::get<ChoiceFrame>(f));
}

void frameApply(Ctx& c, const Action& a) {
    const Frame& f = c.s.frames.back();
    if (std::holds_alternative<TurnFrame>(f))
        turnApply(c, a);
    else if (std::holds_alternative<ActivationFrame>(f))
        activationApply(c, a);
    else if (std::holds_alternative<CombatFrame>(f))
        combatApply(c, a);
    else if (std::holds_alternative<SiegeFrame>(f))
        siegeApply(c, a);
    else
        choiceApply(c, a);
}

bool frameAuto(Ctx& c) {
    const Frame& f = c.s.frames.back();
    if (std::holds_alternative<TurnFrame>(f))
        return turnAuto(c);
    if (std::holds_alternative<ActivationFrame>(f))
        return activationAuto(c);
    if (std::holds_alternative<CombatFrame>(f))
        return combatAuto(c);
    if (std::holds_alternative<SiegeFrame>(f))
        return siegeAuto(c);
    // a choice with no option left ends (11.161: foraging falls back to step losses first)
    auto& ch = std::get<ChoiceFrame>(c.s.frames.back());
    if (const PieceIndexScope pieces(c.s, c.d); !choiceLegal(c, ch).empty())
        return false;
    if (ch.purpose == kChooseForage && ch.data < 0) {
        ch.data = 1;
        if (!choiceLegal(c, ch).empty())
            return true;
    }
    c.s.frames.pop_back();
    return true;
}

// Runs automatic steps until a player must decide (or the game ends).
void advance(Ctx& c) {
    for (int guard = 0; guard < 100000; ++guard) {
        if (c.s.gameOver || c.s.frames.empty())
            return;
        if (c.s.frames.size() == 1) { // between plays: a leader lost or a city taken has its national effects
            leaderLossEffects(c);     // 17.H.5, 17.D.3
            conflictOfInterestGrace(c); // 17.F.5 (C54)
        }
        if (checkImmediateVictory(c))
            return;
        if (!frameAuto(c))
            return;
    }
    qFatal("rules engine: no progress after 100000 automatic steps");
}

void setupMarkers(Ctx& c, const Scenario& sc) {
    GameState& s = c.s;
    const QJsonObject m = sc.markers;
    s.pope = m.value("pope").toString();
    s.valTellineOpen = m.value("valTelline").toString() != QLatin1String("closed");
    s.electorate =
        static_cast<int8_t>(c.d.area(m.value("electorate").toString(QStringLiteral("lower-palatinate"))));
    s.dutchWar = static_cast<int8_t>(m.value("dutchWar").toInt());
    for (const QJsonValue& v : m.value("dutchWarVpAwarded").toArray())
        s.dutchWarVpAwarded |= static_cast<int8_t>(v.toInt() == 2    ? 1
                                                   : v.toInt() == 4  ? 2
                                                   : v.toInt() == -3 ? 4
                                                                     : 0);
    s.dutchAidModifier = static_cast<int8_t>(s.dutchWar >= 4    ? -3
                                             : s.dutchWar >= 2  ? -2
                                             : s.dutchWar <= -3 ? 3
                                                                : 0);
    const QJsonObject w = m.value("wallenstein").toObject();
    s.wallensteinTrack = static_cast<int8_t>(w.value("track").toInt());
    s.wallensteinUses = static_cast<uint8_t>((w.value("dismissed").toBool() ? 1 : 0) |
                                             (w.value("recalled").toBool() ? 2 : 0));
    const int wl = c.d.leader(QStringLiteral("wallenstein"));
    const QString ws = w.value("status").toString();
    if (wl >= 0 && ws == QLatin1String("dismissed"))
        s.leaders[wl] = LeaderState{kAside, LeaderStatus::Aside, 0};
    else if (wl >= 0 && ws == QLatin1String("assassinated"))
        s.leaders[wl] = LeaderState{kRemoved, LeaderStatus::Removed, 0};
    const QString base = m.value("swedishBase").toString();
    s.swedishBase = static_cast<int16_t>(base.isEmpty() ? -1 : c.d.city(base));
    s.hungaryRebellion = m.value("hungaryRebellion").toBool(true);
    const QJsonObject awards = m.value("electorAward").toObject();
    auto holder = [](const QJsonValue& v) -> int8_t {
        return v.toString() == QLatin1String("catholic")     ? kCath
               : v.toString() == QLatin1String("protestant") ? kProt
                                                             : kNone;
    };
    s.electorMajorityHolder = holder(awards.value("majority"));
    s.electorAllHolder = holder(awards.value("all"));
    const QJsonObject war = m.value("warEntered").toObject();
    s.denmarkInWar = war.value("denmark").toBool();
    s.swedenInWar = war.value("sweden").toBool();
    s.franceInWar = war.value("france").toBool();
    s.imperialBavarianBan = m.value("imperialBavarianBan").toBool(true);
    s.spinolaPenaltyDone = m.value("spinolaPenaltyDone").toBool();
}

bool optionalRuleOn(const GameOptions& o, const QString& rule) {
    if (rule.isEmpty())
        return true;
    if (rule == QLatin1String("19.2a"))
        return o.stronger_imperial;
    if (rule == QLatin1String("19.2b"))
        return o.guebriant;
    return false;
}

void placeStack(Ctx& c, const ScenarioStack& st) {
    const int16_t loc =
        st.city >= 0 ? static_cast<int16_t>(st.city) : static_cast<int16_t>(kBoxBase + st.box);
    for (int l : st.leaders)
        c.s.leaders[l] = LeaderState{loc, LeaderStatus::InPlay, 0};
    for (const ScenarioUnits& su : st.units) {
        int full = su.count, reduced = su.reduced;
        for (UnitState& u : c.s.units) {
            if (full + reduced == 0)
                break;
            const UnitType& t = c.d.unitTypes[u.type];
            if (u.loc != kPool || t.nationality != su.nationality || t.kind != su.kind)
                continue;
            u.loc = loc;
            u.steps = full > 0 ? 2 : 1;
            (full > 0 ? full : reduced)--;
        }
    }
}

} // namespace

Engine::Engine(std::shared_ptr<const GameData> data) : m_data(std::move(data)) {
    registerBuiltinEvents();
}

bool Engine::newGame(GameState& s, const QString& scenarioId, const GameOptions& options, uint64_t seed,
                     QString* error, Log* log) const {
    const GameData& d = *m_data;
    const Scenario* sc = d.scenario(scenarioId);
    if (!sc) {
        if (error)
            *error = QStringLiteral("unknown scenario '%1'").arg(scenarioId);
        return false;
    }
    s = GameState{};
    s.scenario = scenarioId;
    s.options = options;
    s.rng.reseed(seed);
    s.turn = static_cast<int8_t>(sc->firstTurn);
    s.firstTurn = static_cast<int8_t>(sc->firstTurn);
    s.lastTurn = static_cast<int8_t>(sc->lastTurn);
    s.vp = static_cast<int16_t>(sc->vp); // 5.11: the printed total is set, not computed
    for (const Nationality& n : d.nationalities)
        s.nationSide.push_back(static_cast<int8_t>(sideIndex(n.side)));
    // 8.412: every counter of the mix, in the pool; optional extras only with their rule.
    for (qsizetype t = 0; t < d.unitTypes.size(); ++t) {
        const UnitType& ut = d.unitTypes[t];
        const int n =
            ut.count +
            (optionalRuleOn(options, ut.optionalRule) && !ut.optionalRule.isEmpty() ? ut.optionalExtra : 0);
        for (int i = 0; i < n; ++i)
            s.units.push_back(UnitState{static_cast<int16_t>(t), kPool, 0, 0});
    }
    s.leaders.assign(static_cast<size_t>(d.leaders.size()), LeaderState{});
    s.cities.assign(static_cast<size_t>(d.cities.size()), CityState{});
    s.areas.assign(static_cast<size_t>(d.areas.size()), AreaState{});
    s.cardPlace.assign(static_cast<size_t>(d.cards.size()), CardPlace::Removed);
    s.eventPlayed.assign(static_cast<size_t>(d.cards.size()), false);

    Ctx c{d, s, log};
    setupMarkers(c, *sc);
    for (const ScenarioStack& st : sc->stacks)
        if (optionalRuleOn(options, st.optionalRule))
            placeStack(c, st);
    for (const ScenarioStack& st : sc->deployments)
        placeStack(c, st);
    for (int side : {kCatholic, kProtestant}) {
        for (int a : sc->controlAreas[side])
            s.areas[a].control = static_cast<int8_t>(side);
        for (int ci : sc->controlCities[side])
            s.cities[ci].marker = static_cast<int8_t>(side);
        s.aidSources[side] = sc->aid[side];
    }
    for (int a : sc->neutralAreas)
        s.areas[a].neutral = true;
    // non-Independent cities held against their Area keep a marker; those of the Area need none
    for (qsizetype ci = 0; ci < d.cities.size(); ++ci) {
        const City& ct = d.cities[ci];
        if (!ct.independent && ct.area >= 0 && s.cities[ci].marker == s.areas[ct.area].control)
            s.cities[ci].marker = kNone;
    }
    // Decks (8.1): the scenario's decks shuffled into the Unplayed piles; later decks wait.
    for (qsizetype i = 0; i < d.cards.size(); ++i) {
        const Card& cd = d.cards[i];
        if (sc->decks.contains(cd.deck))
            s.cardPlace[i] = CardPlace::Unplayed;
        else if (sc->laterDecks.contains(cd.deck))
            s.cardPlace[i] = CardPlace::Later;
    }
    for (int ci : sc->removedCards) {
        s.cardPlace[ci] = CardPlace::Removed;
        s.eventPlayed[ci] = true;
    }
    for (int ci : sc->removedNotPlayed)
        s.cardPlace[ci] = CardPlace::Removed;
    for (qsizetype i = 0; i < d.cards.size(); ++i)
        if (s.cardPlace[i] == CardPlace::Unplayed)
            s.drawPile[sideIndex(d.cards[i].side)].push_back(static_cast<int16_t>(i));
    for (int side : {kCatholic, kProtestant}) {
        auto& pile = s.drawPile[side];
        for (size_t i = pile.size(); i > 1; --i)
            std::swap(pile[i - 1], pile[static_cast<size_t>(s.rng.below(static_cast<int>(i)))]);
    }
    s.interventionAdded =
        sc->decks.contains(Deck::Intervention) || !sc->laterDecks.contains(Deck::Intervention);
    s.apocalypseAdded = sc->decks.contains(Deck::Apocalypse) || !sc->laterDecks.contains(Deck::Apocalypse);
    WP_SAY(c, QStringLiteral("%1 (%2): turn %3, VP %4").arg(sc->name, sc->rule).arg(s.turn).arg(s.vp));
    scenarioStartExtras(c, *sc);
    s.frames.push_back(TurnFrame{Phase::Wallenstein, 0});
    advance(c);
    return true;
}

int Engine::actor(const GameState& s) const {
    if (s.gameOver || s.frames.empty())
        return kNone;
    const Frame& f = s.frames.back();
    if (const auto* t = std::get_if<TurnFrame>(&f)) {
        if (t->phase == Phase::Action)
            return s.activeSide;
        if (t->phase == Phase::EndOfTurn)
            return t->step == 0 ? kProtestant : kCatholic;
        if (t->phase == Phase::Wallenstein)
            return kCatholic;
        return kNone;
    }
    if (const auto* a = std::get_if<ActivationFrame>(&f))
        return a->reactionCity >= 0 ? other(a->side) : a->side;
    if (const auto* cb = std::get_if<CombatFrame>(&f))
        return combatActorOf(s, *cb);
    if (const auto* sg = std::get_if<SiegeFrame>(&f))
        return siegeActorOf(s, *sg);
    return std::get<ChoiceFrame>(f).actor;
}

std::vector<Action> Engine::legalActions(const GameState& s) const {
    if (s.gameOver || s.frames.empty())
        return {};
    Ctx c{*m_data, const_cast<GameState&>(s), nullptr};
    const PieceIndexScope pieces(s, *m_data); // s does not change while the actions are listed
    return frameLegal(c);
}

ApplyResult Engine::apply(GameState& s, const Action& a, Log* log) const {
    ApplyResult r;
    if (s.gameOver) {
        r.error = QStringLiteral("the game is over (%1)").arg(s.result);
        return r;
    }
    const std::vector<Action> legal = legalActions(s);
    if (std::find(legal.begin(), legal.end(), a) == legal.end()) {
        r.error =
            QStringLiteral("'%1' is not a legal action now (%2)").arg(formatAction(*m_data, s, a), prompt(s));
        if (a.kind == ActionKind::PlayCard && a.use == CardUse::Event) { // issue 5: say why, with the rule
            const int side = actor(s);
            const Ctx c{*m_data, s, nullptr};
            const bool held =
                (side == kCatholic || side == kProtestant) &&
                std::find(s.hand[side].begin(), s.hand[side].end(), a.card) != s.hand[side].end();
            if (const QString why = held ? eventRefusal(c, side, a.card) : QString(); !why.isEmpty())
                r.error += QStringLiteral(": ") + why;
        }
        return r;
    }
    Ctx c{*m_data, s, log};
    frameApply(c, a);
    advance(c);
    r.ok = true;
    r.randomness = c.randomness;
    return r;
}

ApplyResult Engine::applyListed(GameState& s, const std::vector<Action>& legal, size_t index,
                                Log* log) const {
    ApplyResult r;
    if (s.gameOver || index >= legal.size()) {
        r.error = s.gameOver ? QStringLiteral("the game is over (%1)").arg(s.result)
                             : QStringLiteral("no listed action %1").arg(index);
        return r;
    }
    Ctx c{*m_data, s, log};
    frameApply(c, legal[index]);
    advance(c);
    r.ok = true;
    r.randomness = c.randomness;
    return r;
}

QString Engine::prompt(const GameState& s) const {
    if (s.gameOver)
        return QStringLiteral("Game over: %1").arg(s.result);
    const GameData& d = *m_data;
    const Frame& f = s.frames.back();
    const QString who = sideName(actor(s));
    if (const auto* t = std::get_if<TurnFrame>(&f)) {
        if (t->phase == Phase::Action)
            return QStringLiteral("%1, turn %2, round %3 of 6: play a card or take a Free Action")
                .arg(who)
                .arg(s.turn)
                .arg(s.roundsUsed[s.activeSide] + 1);
        if (t->phase == Phase::Wallenstein)
            return QStringLiteral("%1: the Wallenstein Phase (7.2)").arg(who);
        return QStringLiteral("%1: discard the card you hold, or keep it (6.G)").arg(who);
    }
    if (const auto* a = std::get_if<ActivationFrame>(&f)) {
        if (a->reactionCity >= 0)
            return QStringLiteral(
                       "%1: enemy forces enter %2 — withdraw inside the fortress or stay outside (11.23)")
                .arg(who, cityName(d, a->reactionCity));
        return QStringLiteral("%1: %2 at %3, %4 MP used")
            .arg(who, a->leader >= 0 ? leaderName(d, a->leader) : QStringLiteral("Free Action"),
                 cityName(d, a->at))
            .arg(a->mpUsed);
    }
    if (const auto* cb = std::get_if<CombatFrame>(&f)) {
        if (QString t = combatTablePrompt(d, s, *cb); !t.isEmpty()) // issue 12: linked battles
            return t;
        return QStringLiteral("%1: battle at %2").arg(who, cityName(d, cb->city));
    }
    if (const auto* sg = std::get_if<SiegeFrame>(&f))
        return QStringLiteral("%1: siege of %2").arg(who, cityName(d, sg->city));
    const auto& ch = std::get<ChoiceFrame>(f);
    switch (ch.purpose) {
    case kChooseForage:
        return ch.data < 0
                   ? QStringLiteral("%1: choose a city to pillage for foraging (11.16)").arg(who)
                   : QStringLiteral("%1: choose a unit to lose a step for foraging (11.161)").arg(who);
    case kChooseOverstack:
        if (ch.kind == kOverstackFrenchSwedish)
            return QStringLiteral(
                       "%1: French and Swedish units may not stack at %2 (17.F.5 Conflict of Interest): "
                       "choose a unit to eliminate (10.22)")
                .arg(who, cityName(d, ch.city));
        return QStringLiteral("%1: choose a unit to eliminate (over the stacking limit, 10.22)").arg(who);
    case kChooseDiscard:
        return QStringLiteral("%1: choose the card to hold (6.D)").arg(who);
    case kChooseCampaign:
        return QStringLiteral(
                   "%1: campaign move (19.8) — play another card to try to activate a second leader "
                   "after %2, or pass")
            .arg(who, ch.leader >= 0 ? leaderName(d, ch.leader) : QString());
    default:
        if (ch.purpose >= 100 && ch.purpose < kChooseEventBase)
            return economyPrompt(d, s, ch);
        if (ch.purpose >= kChooseEventBase && ch.data >= 0 && ch.data < d.cards.size()) { // issue 5
            const Card& card = d.cards[ch.data];
            const QString what = eventChoiceInfo(d, s, ch).what;
            return QStringLiteral("%1: %2 %3 — choose %4")
                .arg(who, card.id, card.title, what.isEmpty() ? QStringLiteral("an option") : what);
        }
        return QStringLiteral("%1: choose").arg(who);
    }
}

namespace {

int combatActorOf(const GameState& s, const CombatFrame& f) {
    return combatActor(s, f);
}

int siegeActorOf(const GameState& s, const SiegeFrame& f) {
    return siegeActor(s, f);
}

} // namespace

} // namespace wp::rules
