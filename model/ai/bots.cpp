// The three bots: random (uniform among the legal actions), priority (the priority list, with a short
// look-ahead for the card rounds) and search (information-set Monte Carlo tree search over the card
// rounds, the priority list as play-out policy). docs/ai.md.
#include "ai/bot.h"

#include "rules/economy.h"
#include "rules/internal.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonObject>

#include <ctime>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <optional>
#include <thread>

namespace wp::ai {

using namespace wp::rules;

namespace {

bool isCardRound(const GameState& s) {
    if (s.frames.size() != 1)
        return false;
    const auto* t = std::get_if<TurnFrame>(&s.frames.front());
    return t && t->phase == Phase::Action;
}

// The card-round actions worth looking at (the others are dominated or rarely sensible): for ACT one card
// per leader (the lowest value that activates him, to keep the better cards), REC with the highest value,
// AID with the most points, every event, and pass. Free Actions only when nothing else is listed.
// With `plan` (the search bot's campaign plan) an activation of the Catholic's leaders in the UP once
// Spinola's army is there is left out: they may not leave it (16.24), so it would waste the card.
std::vector<size_t> cardRoundCandidates(const GameData& d, const GameState& s,
                                        const std::vector<Action>& legal, int side, bool plan = false) {
    std::vector<size_t> out;
    std::map<int, size_t> actByLeader;
    long bestRec = -1, bestAid = -1;
    int bestRecValue = -1, bestAidValue = -1;
    for (size_t i = 0; i < legal.size(); ++i) {
        const Action& a = legal[i];
        if (a.kind == ActionKind::PlayCard) {
            const int value = d.cards[a.card].value;
            switch (a.use) {
            case CardUse::Act: {
                if (plan && side == kCatholic && s.spinolaInUp &&
                    isBox(s.leaders[static_cast<size_t>(a.target)].loc))
                    break;
                auto it = actByLeader.find(a.target);
                if (it == actByLeader.end() || d.cards[legal[it->second].card].value > value)
                    actByLeader[a.target] = i;
                break;
            }
            case CardUse::Rec:
                if (value > bestRecValue) {
                    bestRecValue = value;
                    bestRec = static_cast<long>(i);
                }
                break;
            case CardUse::Aid: {
                const int pts = aidCardValue(d, s, side, a.card);
                if (pts > bestAidValue) {
                    bestAidValue = pts;
                    bestAid = static_cast<long>(i);
                }
                break;
            }
            case CardUse::Event:
            default: // the optional rules' uses (19.5 Dutch intervention, 19.11 Wallenstein's enemies)
                out.push_back(i);
                break;
            }
        } else if (a.kind == ActionKind::Pass) {
            out.push_back(i);
        }
    }
    for (const auto& [leader, i] : actByLeader)
        out.push_back(i);
    if (bestRec >= 0)
        out.push_back(static_cast<size_t>(bestRec));
    if (bestAid >= 0 && bestAidValue > 0)
        out.push_back(static_cast<size_t>(bestAid));
    if (out.empty())
        for (size_t i = 0; i < legal.size(); ++i)
            out.push_back(i);
    std::sort(out.begin(), out.end());
    return out;
}

// The CPU time of the calling thread: the search budget does not shrink when the machine is busy.
double threadCpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

uint64_t mix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// ---------------------------------------------------------------- random

class RandomBot : public Bot {
  public:
    explicit RandomBot(uint64_t seed) : m_rng(mix(seed)) {}
    QString name() const override { return QStringLiteral("random"); }
    Decision decide(const SideView& view, const Controls&) override {
        const std::vector<Action> legal = view.legalActions();
        Decision dec;
        dec.action = legal[static_cast<size_t>(m_rng.below(static_cast<int>(legal.size())))];
        dec.reason = QStringLiteral("random: one of %1 legal actions").arg(legal.size());
        return dec;
    }

  private:
    Rng m_rng;
};

// The scenario's final victory conditions as numbers the search can aim at (5.22; 19.1 when chosen):
// per side the VP bound of its win and the Areas it must control. Other tests (electors, events) are not
// read here.
struct FinalGoals {
    bool known[2] = {false, false};
    int vpAtLeast[2] = {-1000, -1000};
    int vpAtMost[2] = {1000, 1000};
    std::vector<int> areas[2];
};

void readFinalTest(const GameData& d, const QJsonObject& t, int side, FinalGoals& g) {
    if (t.contains(QLatin1String("vpAtLeast")))
        g.vpAtLeast[side] = t.value(QLatin1String("vpAtLeast")).toInt();
    if (t.contains(QLatin1String("vpAtMost")))
        g.vpAtMost[side] = t.value(QLatin1String("vpAtMost")).toInt();
    if (t.contains(QLatin1String("controls"))) {
        const QJsonObject o = t.value(QLatin1String("controls")).toObject();
        const int who =
            o.value(QLatin1String("side")).toString() == QLatin1String("catholic") ? kCatholic : kProtestant;
        if (who == side)
            for (const QJsonValue& a : o.value(QLatin1String("areas")).toArray()) {
                const int ai = d.area(a.toString());
                if (ai >= 0)
                    g.areas[side].push_back(ai);
            }
    }
    for (const QJsonValue& v : t.value(QLatin1String("all")).toArray())
        readFinalTest(d, v.toObject(), side, g);
}

FinalGoals finalGoals(const GameData& d, const QString& scenario, bool optional191) {
    FinalGoals g;
    const Scenario* sc = d.scenario(scenario);
    if (!sc)
        return g;
    QJsonArray finals = sc->victory.value(QStringLiteral("final")).toArray();
    if (optional191)
        for (const QJsonValue& o : sc->victory.value(QStringLiteral("optional")).toArray())
            if (o.toObject().value(QStringLiteral("rule")).toString() == QLatin1String("19.1"))
                finals = o.toObject().value(QStringLiteral("final")).toArray();
    for (const QJsonValue& v : finals) {
        const QJsonObject o = v.toObject();
        const QString w = o.value(QStringLiteral("winner")).toString();
        if (w != QLatin1String("catholic") && w != QLatin1String("protestant"))
            continue;
        const int side = w == QLatin1String("catholic") ? kCatholic : kProtestant;
        g.known[side] = true;
        readFinalTest(d, o.value(QStringLiteral("test")).toObject(), side, g);
    }
    return g;
}

double normalCdf(double x) {
    return 0.5 * std::erfc(-x / std::sqrt(2.0));
}

// The victory outlook for `side`, -1..1: an estimate of P(side wins) - P(the opponent wins) at the end of
// the game from the VP track, the turns left (the VP spread grows with them) and the Areas the final
// conditions need. This is what the search aims at on top of the evaluation (docs/ai.md): a position
// 2 VP short of the threshold in the last turn is worth more than the same VP change early on.
double victoryOutlook(const GameState& s, const FinalGoals& g, int side) {
    if (s.gameOver)
        return s.winner == side ? 1.0 : s.winner == kNone ? 0.0 : -1.0;
    const double turnsLeft = std::max(0, s.lastTurn - s.turn) + 0.5;
    const double sigma = 1.5 + 2.2 * std::sqrt(turnsLeft);
    const double early = std::min(1.0, turnsLeft / 12.0); // how much an Area can still change hands
    double p[2] = {0, 0};
    for (int w = 0; w < 2; ++w) {
        if (!g.known[w])
            continue;
        double pv = 1;
        if (g.vpAtLeast[w] > -1000)
            pv *= normalCdf((s.vp - (g.vpAtLeast[w] - 0.5)) / sigma);
        if (g.vpAtMost[w] < 1000)
            pv *= normalCdf(((g.vpAtMost[w] + 0.5) - s.vp) / sigma);
        for (int a : g.areas[w]) {
            const int ctl = s.areas[static_cast<size_t>(a)].control;
            const double q = ctl == w ? 0.92 : ctl == kNone ? 0.35 : 0.12;
            pv *= q + (0.5 - q) * early * 0.6;
        }
        p[w] = pv;
    }
    return p[side] - p[other(side)];
}

// The value the search maximises for `side` (and the plan bot's look-ahead): the evaluation (VP) plus the
// victory outlook weighted as kOutlookWeight VP per unit of win probability, the threat to the Electors and
// key cities (5.141) and the campaign's long-term VP (campaignTerms).
constexpr double kOutlookWeight = 30;
// The scenario's final conditions, read once per scenario (before any search thread starts).
struct ScenarioGoals {
    FinalGoals goals;
    std::optional<QString> readFor;
    void prepare(const GameData& d, const GameState& s) {
        const QString key = s.scenario + (s.options.victory_19_1 ? QStringLiteral("/19.1") : QString());
        if (!readFor || *readFor != key) {
            goals = finalGoals(d, s.scenario, s.options.victory_19_1);
            readFor = key;
        }
    }
};

constexpr double kThreatWeight = 1;
// In the campaign (learnedValue) the learned expected final VP takes the place of the evaluation's VP and
// material, and the learned outlook that of victoryOutlook; the evaluation's sudden-death terms stay
// (5.21: Wallenstein's track, the three key cities).
double searchValue(const GameData& d, const GameState& s, int side, const FinalGoals& goals) {
    if (const std::optional<LearnedValue> lv = learnedValue(d, s)) {
        // the Catholic's point of view (the Elector threat is antisymmetric: the features' is his)
        const double v =
            lv->finalVp + kOutlookWeight * lv->outlook + wallensteinTerm(s) + keyCitiesTerm(d, s);
        const double threat = side == kCatholic ? lv->electorThreat : -lv->electorThreat;
        return (side == kCatholic ? v : -v) + (kThreatWeight * threat + campaignTerms(d, s, side));
    }
    const double rest = kThreatWeight * electorThreat(d, s, side) + campaignTerms(d, s, side);
    return evaluate(d, s, side) + kOutlookWeight * victoryOutlook(s, goals, side) + rest;
}

// ---------------------------------------------------------------- priority

// `plan`: the priority list with the search bot's campaign plan for its own side (campaignTerms and the
// plan's card-round and activation preferences) and the search value in its look-ahead: the "plan" bot,
// and the search bot's play below the card rounds. Without it, the priority bot.
class PriorityBot : public Bot {
  public:
    explicit PriorityBot(uint64_t seed, bool plan = false) : m_rng(mix(seed ^ 0x7072696fULL)), m_plan(plan) {}
    QString name() const override { return m_plan ? QStringLiteral("plan") : QStringLiteral("priority"); }

    Decision decide(const SideView& view, const Controls& controls) override {
        const Engine& engine = view.engine();
        const GameData& d = view.data();
        const std::vector<Action> legal = view.legalActions();
        Decision dec;
        if (legal.size() == 1) {
            dec.action = legal.front();
            dec.reason = QStringLiteral("the only legal action");
            return dec;
        }
        const GameState sample = view.determinise(m_rng);
        const int side = view.side();
        const int planSide = m_plan ? side : kNone;
        if (!isCardRound(view.state())) {
            QString why;
            dec.action = legal[fastChoiceTowards(engine, sample, legal, m_rng, -1, kNone, &why, planSide)];
            dec.reason = QStringLiteral("priority: ") + why;
            return dec;
        }
        if (m_plan)
            m_goals.prepare(d, view.state());
        // A card round: the priority list proposes, a short look-ahead (this round and the enemy's answer,
        // played by the priority list on a determinisation) disposes.
        const std::vector<size_t> cands = cardRoundCandidates(d, view.state(), legal, side, m_plan);
        const uint64_t playSeed = (static_cast<uint64_t>(m_rng.next()) << 32) | m_rng.next();
        double bestValue = -1e18, secondValue = -1e18;
        size_t best = cands.front(), second = cands.front();
        for (size_t k = 0; k < cands.size(); ++k) {
            if (controls.cancelled() && k > 0)
                break;
            const size_t i = cands[k];
            GameState t = sample;
            Rng r(playSeed); // common random numbers: every candidate meets the same dice
            double v = -1e9;
            if (engine.apply(t, legal[i]).ok) {
                playout(engine, t, r, 2, 600, planSide);
                v = m_plan ? searchValue(d, t, side, m_goals.goals) : evaluate(d, t, side);
            }
            if (controls.progress)
                controls.progress(static_cast<double>(k + 1) / static_cast<double>(cands.size()));
            if (v > bestValue) {
                second = best;
                secondValue = bestValue;
                best = i;
                bestValue = v;
            } else if (v > secondValue) {
                second = i;
                secondValue = v;
            }
        }
        dec.action = legal[best];
        dec.iterations = static_cast<int>(cands.size());
        const QString why = describe(engine, sample, legal[best], planSide);
        dec.reason = QStringLiteral("priority: %1 — look-ahead %2 (position %3%4) among %5 plans")
                         .arg(why, formatAction(d, view.state(), legal[best]))
                         .arg(bestValue, 0, 'f', 1)
                         .arg(secondValue > -1e17 ? QStringLiteral("; next best %1 at %2")
                                                        .arg(formatAction(d, view.state(), legal[second]))
                                                        .arg(secondValue, 0, 'f', 1)
                                                  : QString())
                         .arg(cands.size());
        return dec;
    }

  private:
    Rng m_rng;
    bool m_plan;
    ScenarioGoals m_goals;
};

// ---------------------------------------------------------------- search (IS-MCTS)

struct SearchLevel {
    int width; // the plans of the root the tree considers (the priority bot's best)
    int iterations;
    int horizon;        // top-level decisions played out after the tree
    double seconds;     // CPU-time cap per decision (the tree-growing thread)
    double wallSeconds; // wall-clock cap per whole decision, the ranking pass included
    double blunder;     // handicap: the probability of playing a random plan of the root instead
};

// The default level's wall cap (3 s) leaves room under 5 s for a decision made on a loaded machine: the
// cap holds before the first iteration too (then the ranking's best plan is played), and the priority list
// below the card rounds is not capped.
SearchLevel searchLevel(int level) {
    switch (level) {
    case 1:
        return {3, 30, 2, 0.5, 1.5, 0.3};
    case 2: // 1000 iterations or 1 s of CPU, whichever comes first (session 21; 360 from session 7, 120
            // before): 65 % on the 100 games in session 22, 62 % in session 21 (docs/ai.md); CPU
            // median 0.35 s a card round on this machine (2000 iterations: 0.75 s and 58 %)
        return {6, 1000, 3, 1.0, 3.0, 0};
    case 3:
        return {6, 2000, 3, 2.0, 6.0, 0};
    case 4:
        return {8, 3000, 4, 4.0, 12.0, 0};
    default:
        return {10, 6000, 4, 10.0, 30.0, 0};
    }
}

class SearchBot : public Bot {
  public:
    SearchBot(uint64_t seed, int level)
        : m_rng(mix(seed ^ 0x73656172ULL)), m_level(level), m_priority(seed, true) {}
    QString name() const override { return QStringLiteral("search:%1").arg(m_level); }
    void setThreads(int threads) override { m_threads = std::max(1, threads); }

    Decision decide(const SideView& view, const Controls& controls) override {
        if (!isCardRound(view.state())) {
            // The plan level: our activation marches towards the objective the search chose for it.
            const auto* af = std::get_if<ActivationFrame>(&view.state().frames.back());
            if (m_objective >= 0 && af && af->side == view.side() && af->reactionCity < 0 &&
                af->leader == m_objectiveLeader) {
                const std::vector<Action> legal = view.legalActions();
                QString why;
                const size_t i = fastChoiceTowards(view.engine(), view.state(), legal, m_rng, m_objective,
                                                   view.side(), &why, view.side());
                Decision dec;
                dec.action = legal[i];
                dec.reason = QStringLiteral("search plan (towards %1): %2")
                                 .arg(cityName(view.data(), m_objective), why);
                return dec;
            }
            return m_priority.decide(view,
                                     controls); // the priority list (with the plan) below the card rounds
        }
        m_objective = -1;
        const std::vector<Action> legal = view.legalActions();
        if (legal.size() == 1)
            return m_priority.decide(view, controls);
        return search(view, legal, controls);
    }

    double value(const GameData& d, const GameState& s, int side) const {
        return searchValue(d, s, side, m_goals.goals);
    }

  private:
    struct Node {
        Action action;
        int objective = -1; // the plan level: an ACT's objective city (the root's plans only)
        int mover = kNone;  // who chose `action`
        std::vector<int> children;
        double reward = 0; // for `mover`
        int visits = 0;
        int avail = 0;
    };

    // From a state inside the tree, plays the priority list until the next card round (or the end); an
    // activation of `side` marches towards `objective` when it is a city.
    static void toNextCardRound(const Engine& engine, GameState& s, Rng& rng, int planSide,
                                int objective = -1, int side = kNone) {
        int n = 0;
        while (!s.gameOver && !isCardRound(s) && n++ < 2000) {
            const std::vector<Action> legal = engine.legalActions(s);
            if (legal.empty())
                return;
            const size_t i = fastChoiceTowards(engine, s, legal, rng, objective, side, nullptr, planSide);
            if (!engine.applyListed(s, legal, i).ok) // legal is s's list: not listed again to check it
                return;
        }
    }

    // A plan of the root: a legal action and, for an ACT, the objective of the activation.
    struct Plan {
        size_t index;
        int objective;
    };
    // The root's plans: the card-round candidates, each ACT once per objective worth searching.
    static std::vector<Plan> rootPlans(const GameData& d, const GameState& s,
                                       const std::vector<Action>& legal, int side) {
        std::vector<Plan> out;
        for (size_t ci : cardRoundCandidates(d, s, legal, side, true)) {
            const Action& a = legal[ci];
            std::vector<int> objectives;
            if (a.kind == ActionKind::PlayCard && a.use == CardUse::Act) {
                objectives = activationObjectives(d, s, a.target, side, kObjectives);
                const int up = upObjective(d, s, a.target, side); // the campaign plan (5.15)
                if (up >= 0)
                    objectives.push_back(up);
            }
            if (objectives.empty())
                out.push_back({ci, -1});
            for (int o : objectives)
                out.push_back({ci, o});
        }
        return out;
    }
    static constexpr int kObjectives = 3; // the priority list's best objectives per activation (+ defend)

    Decision search(const SideView& view, const std::vector<Action>& rootLegal, const Controls& controls) {
        const Engine& engine = view.engine();
        const GameData& d = view.data();
        const int side = view.side();
        const SearchLevel lv = searchLevel(m_level);
        m_goals.prepare(d, view.state());
        std::vector<Node> nodes(1);
        nodes[0].mover = kNone;
        // A wall-clock cap on the whole decision as well (a loaded machine stretches the CPU budget):
        // the GUI must get an answer, the ranking pass below included.
        QElapsedTimer wall;
        wall.start();
        const qint64 wallCap = static_cast<qint64>(lv.wallSeconds * 1e9);
        // Progressive bias: the priority bot's look-ahead ranks the root's plans on one determinisation;
        // the tree considers only the best `lv.width` of them.
        std::vector<Plan> rootCands = rootPlans(d, view.state(), rootLegal, side);
        if (static_cast<int>(rootCands.size()) > lv.width) {
            const GameState sample = view.determinise(m_rng);
            const uint64_t playSeed = (static_cast<uint64_t>(m_rng.next()) << 32) | m_rng.next();
            std::vector<std::pair<double, Plan>> ranked;
            for (const Plan& plan : rootCands) {
                GameState t = sample;
                Rng r(playSeed);
                double v = -1e9; // a plan left unranked (out of time) comes last
                if (wall.nsecsElapsed() < wallCap / 3 && engine.apply(t, rootLegal[plan.index]).ok) {
                    toNextCardRound(engine, t, r, side, plan.objective, side);
                    playout(engine, t, r, 2, 600, side);
                    v = value(d, t, side);
                }
                ranked.emplace_back(v, plan);
            }
            std::stable_sort(ranked.begin(), ranked.end(),
                             [](const auto& a, const auto& b) { return a.first > b.first; });
            rootCands.clear();
            for (int i = 0; i < lv.width; ++i)
                rootCands.push_back(ranked[static_cast<size_t>(i)].second);
        }
        // the most of our card rounds on one path of a tree (Decision::depth), over the threads
        std::atomic<int> depthReached{0};
        auto grow = [&](Rng& rng, std::vector<Node>& tree, int iterations, bool report) {
            const double cpu0 = threadCpuSeconds(); // this thread's own clock
            int deepest = 0;
            int it = 0;
            for (; it < iterations; ++it) {
                // the wall cap holds before the first iteration too (a starved thread that spent it in the
                // ranking pass answers with the ranking's best plan, below)
                if (wall.nsecsElapsed() > wallCap ||
                    (it > 0 && (controls.cancelled() || threadCpuSeconds() - cpu0 > lv.seconds)))
                    break;
                GameState s = view.determinise(rng);
                const double base = value(d, s, side);
                std::vector<int> path{0};
                int node = 0;
                bool expanded = false;
                int depth = 0;
                while (!s.gameOver && !expanded && depth < 6) {
                    if (!isCardRound(s)) {
                        toNextCardRound(engine, s, rng, side);
                        continue;
                    }
                    const int mover = engine.actor(s);
                    const std::vector<Action> legal = node == 0 ? rootLegal : engine.legalActions(s);
                    // The opponent model: the opponent's card rounds below the root are not branched on, he
                    // plays them as the priority list would (as in the play-outs), so the tree holds our
                    // plans only and reaches further down our own card rounds (docs/ai.md, session 15).
                    if (node != 0 && mover != side) {
                        const size_t reply =
                            fastChoiceTowards(engine, s, legal, rng, -1, kNone, nullptr, side);
                        if (!engine.applyListed(s, legal, reply).ok)
                            break;
                        ++depth;
                        continue;
                    }
                    std::vector<Plan> cands;
                    if (node == 0)
                        cands = rootCands;
                    else
                        for (size_t ci : cardRoundCandidates(d, s, legal, mover, mover == side))
                            cands.push_back({ci, -1});
                    // available children; the first untried candidate is expanded
                    std::vector<int> avail;
                    std::vector<Plan> untried;
                    for (const Plan& plan : cands) {
                        int found = -1;
                        for (int ch : tree[static_cast<size_t>(node)].children)
                            if (tree[static_cast<size_t>(ch)].action == legal[plan.index] &&
                                tree[static_cast<size_t>(ch)].objective == plan.objective) {
                                found = ch;
                                break;
                            }
                        if (found >= 0)
                            avail.push_back(found);
                        else
                            untried.push_back(plan);
                    }
                    for (int ch : avail)
                        ++tree[static_cast<size_t>(ch)].avail;
                    int next = -1;
                    if (!untried.empty()) {
                        const Plan plan =
                            untried[static_cast<size_t>(rng.below(static_cast<int>(untried.size())))];
                        Node n;
                        n.action = legal[plan.index];
                        n.objective = plan.objective;
                        n.mover = mover;
                        n.avail = 1;
                        tree.push_back(n);
                        next = static_cast<int>(tree.size()) - 1;
                        tree[static_cast<size_t>(node)].children.push_back(next);
                        expanded = true;
                    } else {
                        double bestU = -1e18;
                        for (int ch : avail) {
                            const Node& n = tree[static_cast<size_t>(ch)];
                            const double u =
                                n.reward / n.visits +
                                0.7 * std::sqrt(std::log(static_cast<double>(n.avail)) / n.visits);
                            if (u > bestU) {
                                bestU = u;
                                next = ch;
                            }
                        }
                    }
                    if (next < 0)
                        break;
                    if (!engine.apply(s, tree[static_cast<size_t>(next)].action).ok)
                        break;
                    if (tree[static_cast<size_t>(next)].objective >= 0)
                        toNextCardRound(engine, s, rng, side, tree[static_cast<size_t>(next)].objective,
                                        mover);
                    path.push_back(next);
                    node = next;
                    ++depth;
                }
                deepest =
                    std::max(deepest, static_cast<int>(std::count_if(path.begin(), path.end(), [&](int p) {
                                 return tree[static_cast<size_t>(p)].mover == side;
                             })));
                playout(engine, s, rng, lv.horizon, 3000, side);
                const double v = value(d, s, side) - base;
                const double r = 1.0 / (1.0 + std::exp(-v / 4.0)); // for `side`
                for (int p : path) {
                    Node& n = tree[static_cast<size_t>(p)];
                    ++n.visits;
                    n.reward += (n.mover == kNone || n.mover == side) ? r : 1.0 - r;
                }
                if (report && controls.progress)
                    controls.progress(static_cast<double>(it + 1) / iterations);
            }
            for (int known = depthReached.load();
                 deepest > known && !depthReached.compare_exchange_weak(known, deepest);) {
            }
            return it;
        };
        int it = 0;
        if (m_threads <= 1) {
            it = grow(m_rng, nodes, lv.iterations, true);
        } else {
            // Root parallelisation: one tree per thread, each with its own generator and a share of the
            // iterations; the root's statistics are summed.
            const int n = m_threads;
            std::vector<std::vector<Node>> trees(static_cast<size_t>(n), nodes);
            std::vector<Rng> rngs;
            for (int t = 0; t < n; ++t)
                rngs.emplace_back((static_cast<uint64_t>(m_rng.next()) << 32) | m_rng.next());
            std::vector<int> done(static_cast<size_t>(n), 0);
            std::vector<std::thread> pool;
            const int share = (lv.iterations + n - 1) / n;
            for (int t = 1; t < n; ++t)
                pool.emplace_back([&, t] {
                    done[static_cast<size_t>(t)] =
                        grow(rngs[static_cast<size_t>(t)], trees[static_cast<size_t>(t)], share, false);
                });
            done[0] = grow(rngs[0], trees[0], share, true);
            for (std::thread& th : pool)
                th.join();
            nodes = std::move(trees[0]);
            it = done[0];
            for (int t = 1; t < n; ++t) {
                it += done[static_cast<size_t>(t)];
                const std::vector<Node>& other = trees[static_cast<size_t>(t)];
                for (int ch : other[0].children) {
                    const Node& o = other[static_cast<size_t>(ch)];
                    int found = -1;
                    for (int mine : nodes[0].children)
                        if (nodes[static_cast<size_t>(mine)].action == o.action &&
                            nodes[static_cast<size_t>(mine)].objective == o.objective)
                            found = mine;
                    if (found < 0) {
                        Node copy = o;
                        copy.children.clear();
                        nodes.push_back(copy);
                        nodes[0].children.push_back(static_cast<int>(nodes.size()) - 1);
                    } else {
                        nodes[static_cast<size_t>(found)].visits += o.visits;
                        nodes[static_cast<size_t>(found)].reward += o.reward;
                    }
                }
            }
        }
        // the most visited child of the root
        const Node& root = nodes[0];
        int best = -1, second = -1;
        for (int ch : root.children) {
            const int v = nodes[static_cast<size_t>(ch)].visits;
            if (best < 0 || v > nodes[static_cast<size_t>(best)].visits) {
                second = best;
                best = ch;
            } else if (second < 0 || v > nodes[static_cast<size_t>(second)].visits) {
                second = ch;
            }
        }
        Decision dec;
        dec.iterations = it;
        dec.depth = depthReached.load();
        if (best < 0 && !rootCands.empty()) { // out of wall-clock time before the first iteration
            const Plan first = rootCands.front();
            dec.action = rootLegal[first.index];
            setObjective(dec.action, first.objective);
            const QString a = formatAction(d, view.state(), dec.action);
            dec.reason =
                QStringLiteral("search: %1 (out of time before the first iteration: the ranking's best)")
                    .arg(first.objective >= 0
                             ? QStringLiteral("%1 towards %2").arg(a, cityName(d, first.objective))
                             : a);
            return dec;
        }
        if (best < 0) {
            Decision p = m_priority.decide(view, controls);
            p.reason = QStringLiteral("search found nothing; ") + p.reason;
            return p;
        }
        const Node& b = nodes[static_cast<size_t>(best)];
        dec.action = b.action;
        // The handicap of the low levels: now and then a plan of the root at random instead of the best.
        if (lv.blunder > 0 && m_rng.below(1000) < static_cast<int>(lv.blunder * 1000)) {
            const Plan pick = rootCands[static_cast<size_t>(m_rng.below(static_cast<int>(rootCands.size())))];
            dec.action = rootLegal[pick.index];
            setObjective(dec.action, pick.objective);
            dec.reason =
                QStringLiteral("search:%1 handicap (%2 % of the card rounds a random plan of the best %3): "
                               "%4 instead of %5")
                    .arg(m_level)
                    .arg(lv.blunder * 100, 0, 'f', 0)
                    .arg(rootCands.size())
                    .arg(formatAction(d, view.state(), dec.action), formatAction(d, view.state(), b.action));
            return dec;
        }
        setObjective(b.action, b.objective);
        auto pct = [](const Node& n) { return n.visits ? 100.0 * n.reward / n.visits : 0.0; };
        auto planText = [&](const Node& n) {
            const QString a = formatAction(d, view.state(), n.action);
            return n.objective >= 0 ? QStringLiteral("%1 towards %2").arg(a, cityName(d, n.objective)) : a;
        };
        dec.reason = QStringLiteral("search: %1 (%2 iterations, %3 of our card rounds deep; %4 visits, %5 % "
                                    "expected)%6")
                         .arg(planText(b))
                         .arg(it)
                         .arg(dec.depth)
                         .arg(b.visits)
                         .arg(pct(b), 0, 'f', 0)
                         .arg(second >= 0 ? QStringLiteral("; next %1 (%2 visits, %3 %)")
                                                .arg(planText(nodes[static_cast<size_t>(second)]))
                                                .arg(nodes[static_cast<size_t>(second)].visits)
                                                .arg(pct(nodes[static_cast<size_t>(second)]), 0, 'f', 0)
                                          : QString());
        return dec;
    }

    // The plan chosen at the card round: the activated leader and his objective, followed by our
    // decisions of that activation (decide()).
    void setObjective(const Action& a, int objective) {
        const bool act = a.kind == ActionKind::PlayCard && a.use == CardUse::Act;
        m_objective = act ? objective : -1;
        m_objectiveLeader = act ? a.target : -1;
    }

    Rng m_rng;
    int m_level;
    int m_threads = 1;
    int m_objective = -1, m_objectiveLeader = -1;
    PriorityBot m_priority;
    ScenarioGoals m_goals;
};

} // namespace

// ---------------------------------------------------------------- the learned value

#include "ai/campaign_value.inc"

std::optional<LearnedValue> learnedValue(const GameData& d, const GameState& s) {
    // the table's columns are valueFeatures(), checked once: a table fitted on other features is not used
    static const bool columnsMatch = [] {
        const std::vector<QString>& names = valueFeatureNames();
        if (names.size() != std::size(kCampaignValueFeatures))
            return false;
        for (size_t i = 0; i < names.size(); ++i)
            if (names[i] != QLatin1String(kCampaignValueFeatures[i]))
                return false;
        return true;
    }();
    if (!columnsMatch || s.gameOver || s.options.victory_19_1 || s.scenario != QLatin1String("campaign"))
        return std::nullopt;
    // the features hand back electorThreat(d, s, kCatholic) in their "threat" column
    static const size_t threatColumn = static_cast<size_t>(
        std::find(valueFeatureNames().begin(), valueFeatureNames().end(), QLatin1String("threat")) -
        valueFeatureNames().begin());
    const int t = std::clamp(s.lastTurn - s.turn, 0, static_cast<int>(std::size(kCampaignValueSigma)) - 1);
    const std::vector<double> f = valueFeatures(d, s);
    LearnedValue lv;
    lv.electorThreat = f.at(threatColumn);
    for (size_t i = 0; i < f.size(); ++i)
        lv.finalVp += f[i] * kCampaignValueCoef[t][i];
    // 5.22: the Catholic wins with 30 VP or more and his three Areas, the Protestant with 10 or less
    const double sigma = kCampaignValueSigma[t];
    double catholic = normalCdf((lv.finalVp - 29.5) / sigma);
    for (size_t a = 0; a < 3; ++a) // features 5..7: Austria, Bavaria, the Spanish Netherlands (-1, 0, 1)
        catholic *= kCampaignValueArea[t][a][static_cast<int>(f[5 + a]) + 1];
    lv.outlook = catholic - normalCdf((10.5 - lv.finalVp) / sigma);
    return lv;
}

double victoryOutlook(const GameData& d, const GameState& s, int side) {
    return victoryOutlook(s, finalGoals(d, s.scenario, s.options.victory_19_1), side);
}

constexpr int kDefaultSearchLevel = 2;

std::unique_ptr<Bot> makeBot(const QString& spec, uint64_t seed, QString* error) {
    const QString name = spec.section(QLatin1Char(':'), 0, 0).trimmed().toLower();
    const QString levelText = spec.section(QLatin1Char(':'), 1);
    if (name == QLatin1String("random") && levelText.isEmpty())
        return std::make_unique<RandomBot>(seed);
    if (name == QLatin1String("priority") && levelText.isEmpty())
        return std::make_unique<PriorityBot>(seed);
    if (name == QLatin1String("plan") && levelText.isEmpty())
        return std::make_unique<PriorityBot>(seed, true);
    if (name == QLatin1String("search")) {
        int level = kDefaultSearchLevel;
        if (!levelText.isEmpty()) {
            bool ok = false;
            level = levelText.toInt(&ok);
            if (!ok || level < 1 || level > 5) {
                if (error)
                    *error = QStringLiteral("bot '%1': the level must be 1 to 5").arg(spec);
                return nullptr;
            }
        }
        return std::make_unique<SearchBot>(seed, level);
    }
    if (error)
        *error = QStringLiteral("unknown bot '%1' (%2)").arg(spec, botNames().join(QStringLiteral(", ")));
    return nullptr;
}

QStringList botNames() {
    return {QStringLiteral("random"), QStringLiteral("priority"), QStringLiteral("plan"),
            QStringLiteral("search"), QStringLiteral("search:1..5")};
}

} // namespace wp::ai
