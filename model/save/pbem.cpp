#include "save/pbem.h"

#include "battle/linked.h"
#include "data/datadir.h"
#include "rules/position.h"
#include "save/savefile.h"

#include <QCryptographicHash>
#include <QDataStream>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QSaveFile>

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <optional>

namespace wp::save {

using namespace rules;

namespace {

constexpr int kPbemVersion = 2;    // the newest protocol this build writes and reads (docs/pbem.md)
constexpr int kOrdersVersion = 2;  // standing orders exist from protocol 2 on
constexpr int kChainLength = 4096; // files one side can send in a game
constexpr int kDicePerAction = 32; // dice prepared per action (more come from the re-seeded generator)

QByteArray sha(std::initializer_list<QByteArrayView> parts) {
    QCryptographicHash h(QCryptographicHash::Sha256);
    for (QByteArrayView p : parts) {
        h.addData(QByteArray::number(p.size()));
        h.addData(QByteArrayView(":"));
        h.addData(p);
    }
    return h.result().toHex();
}

uint64_t u64(const QByteArray& hex) {
    return hex.left(16).toULongLong(nullptr, 16);
}

// setTestSecretsSeed(): the generator of the secrets in tests (none: the operating system's).
std::mutex g_testMutex;
std::optional<QRandomGenerator> g_testSecrets;

QByteArray randomHex() {
    QByteArray b(32, 0);
    {
        const std::lock_guard<std::mutex> lock(g_testMutex);
        if (g_testSecrets) {
            g_testSecrets->fillRange(reinterpret_cast<quint32*>(b.data()), 8);
            return b.toHex();
        }
    }
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32*>(b.data()), 8);
    return b.toHex();
}

QByteArray chainAt(const QByteArray& seedHex, int index) {
    QByteArray v = QByteArray::fromHex(seedHex);
    for (int k = 0; k < kChainLength - index; ++k)
        v = QCryptographicHash::hash(v, QCryptographicHash::Sha256);
    return v.toHex();
}

bool chainFollows(const QByteArray& prev, const QByteArray& next) {
    return QCryptographicHash::hash(QByteArray::fromHex(next), QCryptographicHash::Sha256).toHex() == prev;
}

QString sideId(int side) {
    return side == kCatholic ? QStringLiteral("catholic") : QStringLiteral("protestant");
}

int sideFrom(const QJsonObject& o) {
    const QString s = o.value(QStringLiteral("from")).toString();
    return s == QLatin1String("catholic")     ? kCatholic
           : s == QLatin1String("protestant") ? kProtestant
                                              : kNone;
}

QByteArray fileHash(const QJsonObject& o) {
    return QCryptographicHash::hash(QJsonDocument(o).toJson(QJsonDocument::Compact),
                                    QCryptographicHash::Sha256)
        .toHex();
}

QByteArray hexField(const QJsonObject& o, const char* key) {
    return o.value(QLatin1String(key)).toString().toLatin1();
}

// The tactical rulesets a game's battles may go to the table with (option battles=, docs/linked-battles.md).
QStringList tableRulesets(const GameOptions& o) {
    QStringList out;
    if (o.battles == kBattlesTvbd || o.battles == kBattlesAsk)
        out << QStringLiteral("tvbd");
    if (o.battles == kBattlesTercios || o.battles == kBattlesAsk)
        out << QStringLiteral("tercios");
    return out;
}

// 32 dice (0-9) from a seed, by rejection on bytes (no modulo bias).
std::vector<int8_t> diceFrom(const QByteArray& seedHex) {
    std::vector<int8_t> out;
    for (int block = 0; out.size() < static_cast<size_t>(kDicePerAction); ++block) {
        const QByteArray h = QByteArray::fromHex(sha({"d10", seedHex, QByteArray::number(block)}));
        for (char c : h) {
            const auto b = static_cast<uint8_t>(c);
            if (b < 250 && out.size() < static_cast<size_t>(kDicePerAction))
                out.push_back(static_cast<int8_t>(b % 10));
        }
    }
    return out;
}

// A keyed permutation (Fisher-Yates driven by SHA-256 of the key): nobody without the key can tell it.
void keyedShuffle(std::vector<int16_t>& v, const QByteArray& key, const QByteArray& counter) {
    std::sort(v.begin(), v.end());
    for (size_t i = v.size(); i > 1; --i) {
        const uint64_t r = u64(sha({"perm", key, counter, QByteArray::number(static_cast<qulonglong>(i))}));
        std::swap(v[i - 1], v[static_cast<size_t>(r % i)]);
    }
}

// This side's whole unknown pool (hand + draw pile) re-dealt by its key, sizes kept.
void rekeyFull(GameState& s, int side, const QByteArray& key) {
    std::vector<int16_t> pool = s.drawPile[side];
    pool.insert(pool.end(), s.hand[side].begin(), s.hand[side].end());
    keyedShuffle(pool, key, "setup");
    const size_t n = s.drawPile[side].size();
    s.drawPile[side].assign(pool.begin(), pool.begin() + static_cast<std::ptrdiff_t>(n));
    s.hand[side].assign(pool.begin() + static_cast<std::ptrdiff_t>(n), pool.end());
    for (int16_t c : s.drawPile[side])
        s.cardPlace[c] = CardPlace::Unplayed;
    for (int16_t c : s.hand[side])
        s.cardPlace[c] = CardPlace::Hand;
}

// After an action: if the engine shuffled this side's draw pile (8.1 reshuffle, 8.11 a later deck), the
// cards it shuffled - the new pile and the cards drawn from it - are re-dealt by the side's key, so the
// public generator does not tell the opponent the order.
void rekeyAfter(GameState& s, int side, const QByteArray& key, const std::vector<int16_t>& oldPile,
                const std::vector<int16_t>& oldHand, qsizetype actionIndex) {
    const std::vector<int16_t>& pile = s.drawPile[side];
    if (pile.size() <= oldPile.size() && std::equal(pile.begin(), pile.end(), oldPile.begin()))
        return; // only draws from the top (or nothing)
    std::vector<int16_t> drawn;
    for (int16_t c : s.hand[side])
        if (std::find(oldHand.begin(), oldHand.end(), c) == oldHand.end())
            drawn.push_back(c);
    bool oldLeft = false;
    for (int16_t c : pile)
        oldLeft = oldLeft || std::find(oldPile.begin(), oldPile.end(), c) != oldPile.end();
    std::vector<int16_t> fromShuffle; // the drawn cards that came out of the shuffle
    for (int16_t c : drawn)
        if (oldLeft || std::find(oldPile.begin(), oldPile.end(), c) == oldPile.end())
            fromShuffle.push_back(c);
    std::vector<int16_t> pool = pile;
    pool.insert(pool.end(), fromShuffle.begin(), fromShuffle.end());
    keyedShuffle(pool, key, "action " + QByteArray::number(actionIndex));
    const size_t n = pile.size();
    s.drawPile[side].assign(pool.begin(), pool.begin() + static_cast<std::ptrdiff_t>(n));
    size_t k = n;
    for (int16_t& c : s.hand[side])
        if (std::find(fromShuffle.begin(), fromShuffle.end(), c) != fromShuffle.end())
            c = pool[k++];
    for (int16_t c : s.drawPile[side])
        s.cardPlace[c] = CardPlace::Unplayed;
    for (int16_t c : s.hand[side])
        s.cardPlace[c] = CardPlace::Hand;
}

// The opponent's copy does not know this side's cards: when an action names one (play, combat card, a
// choice among hand cards), the stand-in arrangement is changed so that the card is in hand: it swaps
// places with a hand card, both unknown to the viewer. A choice among hand cards on top of the stack
// lists the card instead of the one swapped out.
void substitute(const GameData& d, GameState& s, int side, const QString& text) {
    std::vector<int16_t> named;
    for (const QString& w : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const int c = d.cardIndex.value(w, -1);
        if (c >= 0 && sideIndex(d.cards[c].side) == side)
            named.push_back(static_cast<int16_t>(c));
    }
    auto& pile = s.drawPile[side];
    auto& hand = s.hand[side];
    for (int16_t card : named) {
        if (s.cardPlace[card] != CardPlace::Unplayed)
            continue;
        auto it = std::find(pile.begin(), pile.end(), card);
        auto h = std::find_if(hand.rbegin(), hand.rend(), [&](int16_t x) {
            return std::find(named.begin(), named.end(), x) == named.end();
        });
        if (it == pile.end() || h == hand.rend())
            continue;
        const int16_t out = *h;
        *h = card;
        *it = out;
        s.cardPlace[card] = CardPlace::Hand;
        s.cardPlace[out] = CardPlace::Unplayed;
        if (!s.frames.empty())
            if (auto* ch = std::get_if<ChoiceFrame>(&s.frames.back()); ch && ch->actor == side) {
                auto o = std::find(ch->options.begin(), ch->options.end(), out);
                if (o != ch->options.end() &&
                    std::find(ch->options.begin(), ch->options.end(), card) == ch->options.end())
                    *o = card;
            }
    }
}

// The cards of `side` that left its hidden places (hand, draw pile) between two states: revealed cards.
QString revealedCards(const GameData& d, const GameState& before, const GameState& after, int side) {
    QStringList out;
    for (size_t c = 0; c < after.cardPlace.size(); ++c) {
        if (sideIndex(d.cards[static_cast<qsizetype>(c)].side) != side)
            continue;
        const bool was = before.cardPlace[c] == CardPlace::Hand || before.cardPlace[c] == CardPlace::Unplayed;
        const bool is = after.cardPlace[c] == CardPlace::Hand || after.cardPlace[c] == CardPlace::Unplayed;
        if (was && !is)
            out << d.cards[static_cast<qsizetype>(c)].id;
    }
    return out.join(QLatin1Char(' '));
}

// WESTPHALIA_PBEM_DEBUG=DIR: every public state hash computed is also written as DIR/<hash>.json (the
// state without hands and draw piles), to find what two copies disagree on.
void debugDump(const Engine& engine, const GameState& s, const QByteArray& digest) {
    static const QString dir = qEnvironmentVariable("WESTPHALIA_PBEM_DEBUG");
    if (dir.isEmpty())
        return;
    QJsonObject o = stateToJson(engine, s);
    o.remove(QStringLiteral("hands"));
    o.remove(QStringLiteral("drawPiles"));
    o.remove(QStringLiteral("prompt"));
    QDir().mkpath(dir);
    QFile f(dir + QLatin1Char('/') + QString::fromLatin1(digest) + QStringLiteral(".json"));
    if (f.open(QIODevice::WriteOnly))
        f.write(QJsonDocument(o).toJson());
}

QString diceText(const std::vector<int8_t>& used) {
    QStringList l;
    for (int8_t d : used)
        l << QString::number(d);
    return l.join(QLatin1Char(' '));
}

bool decodeFile(const QByteArray& bytes, const QString& name, QJsonObject* out, QString* error) {
    QByteArray raw;
    QString why;
    if (!gzipDecompress(bytes, &raw, &why)) {
        *error = QStringLiteral("%1: %2").arg(
            name, why.replace(QLatin1String(".tyw save"), QLatin1String("turn file")));
        return false;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(raw, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        *error = QStringLiteral("%1: bad JSON (byte %2): %3").arg(name).arg(pe.offset).arg(pe.errorString());
        return false;
    }
    *out = doc.object();
    if (out->value(QStringLiteral("format")).toString() != QLatin1String("westphalia-pbem")) {
        *error = QStringLiteral("%1: $.format: not a Westphalia play-by-e-mail file").arg(name);
        return false;
    }
    const int v = out->value(QStringLiteral("version")).toInt(-1);
    if (v > kPbemVersion) {
        *error =
            QStringLiteral("%1: $.version: PBEM protocol %2 is newer than this Westphalia reads (1 to %3): "
                           "update Westphalia")
                .arg(name)
                .arg(v)
                .arg(kPbemVersion);
        return false;
    }
    if (v < 1) {
        *error =
            QStringLiteral("%1: $.version: PBEM protocol %2 does not exist (this Westphalia reads 1 to %3)")
                .arg(name)
                .arg(v)
                .arg(kPbemVersion);
        return false;
    }
    return true;
}

QByteArray encodeFile(const QJsonObject& o) {
    return gzipCompress(QJsonDocument(o).toJson(QJsonDocument::Indented));
}

} // namespace

void setTestSecretsSeed(quint64 seed) {
    const std::lock_guard<std::mutex> lock(g_testMutex);
    if (seed == 0) {
        g_testSecrets.reset();
        return;
    }
    const quint32 words[2] = {static_cast<quint32>(seed), static_cast<quint32>(seed >> 32)};
    g_testSecrets.emplace(words, 2);
    std::fprintf(stderr,
                 "westphalia: PBEM secrets from the fixed test seed %llu (tests only: never in a real "
                 "game)\n",
                 static_cast<unsigned long long>(seed));
}

QByteArray publicDigest(const GameState& s) {
    QByteArray b;
    QDataStream ds(&b, QIODevice::WriteOnly);
    ds << s.scenario << s.turn << s.firstTurn << s.lastTurn << s.roundsUsed[0] << s.roundsUsed[1]
       << s.activeSide << s.vp << s.wallensteinTrack << s.dutchWar << s.aidPoints[0] << s.aidPoints[1]
       << s.markers << s.winner << s.gameOver << s.result << s.pope << s.swedishBase << s.wallensteinUses;
    for (int8_t n : s.nationSide)
        ds << n;
    for (const UnitState& u : s.units)
        ds << u.type << u.loc << u.steps << u.flags;
    for (const LeaderState& l : s.leaders)
        ds << l.loc << static_cast<uint8_t>(l.status) << l.flags;
    for (const CityState& c : s.cities)
        ds << c.marker << c.pillage << c.siege << c.sieger << c.revolt;
    for (const AreaState& a : s.areas)
        ds << a.control << a.neutral;
    for (size_t c = 0; c < s.cardPlace.size(); ++c) {
        const CardPlace p = s.cardPlace[c] == CardPlace::Hand ? CardPlace::Unplayed : s.cardPlace[c];
        ds << static_cast<uint8_t>(p) << static_cast<bool>(s.eventPlayed[c]);
    }
    for (int side : {kCatholic, kProtestant}) {
        ds << static_cast<quint32>(s.hand[side].size()) << static_cast<quint32>(s.drawPile[side].size());
        // as a set: its order comes from the order of the hand it was discarded from, which is hidden
        // (and a reshuffle re-deals it by the owner's key)
        std::vector<int16_t> played = s.playedPile[side];
        std::sort(played.begin(), played.end());
        for (int16_t c : played)
            ds << c;
    }
    ds << static_cast<quint32>(s.frames.size());
    for (const Frame& f : s.frames)
        ds << static_cast<quint32>(f.index());
    return QCryptographicHash::hash(b, QCryptographicHash::Sha256).toHex();
}

// ------------------------------------------------------------------ the replay of the exchange
// Walks the files in order and rebuilds a view of the game, checking every file on the way.
struct PbemSession::Replay {
    Replay(const GameData& data, const Engine& e, const std::vector<QJsonObject>& f)
        : d(data), engine(e), files(f) {}
    const GameData& d;
    const Engine& engine;
    // inputs
    const std::vector<QJsonObject>& files;
    int me = kNone;              // the side whose view this is (kNone: the truth, both secrets)
    QByteArray myChain, myNonce; // my secrets (hex), empty in truth mode
    QByteArray secret[2];        // deck secrets known (mine, and the revealed ones)
    // derived
    QByteArray gameId;
    int host = kCatholic;
    DiceMode dice = DiceMode::Sealed;
    QByteArray key[2];
    GameState s;
    QStringList actions;
    bool built = false, waiting = false;
    QStringList* happened = nullptr;
    int happenedFrom = 0;
    int filesDone = 0;                        // files processed completely
    QStringList checks;                       // what was verified (verifyGame's report)
    QStringList lines;                        // the log lines of the last action applied (with `happened`)
    std::vector<GameState>* states = nullptr; // with stepStates(): the states from action statesFrom on
    int statesFrom = 0;
    std::vector<Log>* logs = nullptr; // with stepStates(..., logs): the log of each action from statesFrom on

    QString fail(const QString& what) const { return what; }

    QByteArray chainOfFile(int f) const { return hexField(files[static_cast<size_t>(f)], "chain"); }
    // The chain value of `side` revealed last before file f, and the one revealed in the next file.
    QByteArray latestBefore(int side, int f) const {
        for (int k = f - 1; k >= 0; --k)
            if (sideFrom(files[static_cast<size_t>(k)]) == side)
                return chainOfFile(k);
        return {};
    }
    int filesBy(int side, int upto) const {
        int n = 0;
        for (int k = 0; k < upto && k < static_cast<int>(files.size()); ++k)
            n += sideFrom(files[static_cast<size_t>(k)]) == side;
        return n;
    }
    QByteArray nextValue(int side, int f) const { // the value `side` reveals after file f
        if (f + 1 < static_cast<int>(files.size()))
            return sideFrom(files[static_cast<size_t>(f + 1)]) == side ? chainOfFile(f + 1) : QByteArray();
        if (side == me && !myChain.isEmpty())
            return chainAt(myChain, filesBy(me, static_cast<int>(files.size())));
        return {};
    }

    // The standing orders of `side` in force during file f: those of its latest file before f (none in
    // protocol 1, or before its first turn file). A malformed order makes the file refused.
    bool ordersBefore(int side, int f, StandingOrders* out, QString* error) const {
        *out = StandingOrders();
        for (int k = f - 1; k >= 2; --k) {
            const QJsonObject& o = files[static_cast<size_t>(k)];
            if (sideFrom(o) != side)
                continue;
            if (!o.contains(QStringLiteral("orders")))
                return true;
            auto parsed = StandingOrders::fromJson(d, o.value(QStringLiteral("orders")).toObject(),
                                                   QStringLiteral("file %1: $.orders").arg(k + 1), error);
            if (!parsed)
                return false;
            *out = *parsed;
            return true;
        }
        return true;
    }

    bool start(QString* error) {
        const QJsonObject& st = files[0];
        gameId = hexField(st, "game");
        host = sideFrom(st);
        dice = st.value(QStringLiteral("dice")).toString() == QLatin1String("open") ? DiceMode::Open
                                                                                    : DiceMode::Sealed;
        if (files.size() < 2)
            return true;
        const QJsonObject& jn = files[1];
        QByteArray nonceHost;
        if (me == host && !myNonce.isEmpty())
            nonceHost = myNonce;
        else if (files.size() >= 3) {
            nonceHost = hexField(files[2], "nonce");
            if (sha({"nonce", gameId, nonceHost}) != hexField(st, "nonceCommit")) {
                *error =
                    QStringLiteral("file 3 reveals a nonce that is not the one the %1 player committed to "
                                   "in the start file: forged start material")
                        .arg(sideName(host));
                return false;
            }
        } else
            return true; // the guest waits for the host's nonce
        const QByteArray nonceGuest = hexField(jn, "nonce");
        for (int side : {kCatholic, kProtestant}) {
            if (secret[side].isEmpty())
                continue;
            const QJsonObject& commitFile = side == host ? st : jn;
            if (sha({"deck-commit", gameId, secret[side]}) != hexField(commitFile, "deckCommit")) {
                *error = QStringLiteral("the %1 player's revealed deck secret does not match his commitment "
                                        "(file %2): his hands cannot be verified; the secret was forged")
                             .arg(sideName(side))
                             .arg(side == host ? 1 : 2);
                return false;
            }
            key[side] = sha({"deck", gameId, secret[side], side == host ? nonceGuest : nonceHost});
        }
        GameOptions options;
        for (const QJsonValue& v : st.value(QStringLiteral("options")).toArray()) {
            QString why;
            if (!setOption(options, v.toString(), &why)) {
                *error = QStringLiteral("start file: $.options: %1").arg(why);
                return false;
            }
        }
        QString why;
        if (!engine.newGame(s, st.value(QStringLiteral("scenario")).toString(), options,
                            u64(sha({"setup", gameId, nonceHost, nonceGuest})), &why)) {
            *error = QStringLiteral("start file: $.scenario: %1").arg(why);
            return false;
        }
        for (int side : {kCatholic, kProtestant})
            if (!key[side].isEmpty())
                rekeyFull(s, side, key[side]);
        built = true;
        filesDone = 2;
        checks << QStringLiteral("start: commitments of both sides, the host's nonce matches its commitment");
        return true;
    }

    // Applies one action of `author`. `seedOther` is the other side's chain value for its dice (empty:
    // not known yet). Returns false with *error; *used = the dice rolled (or a shuffle happened).
    enum class Step { Ok, Waiting, Failed };
    // `actorSide` is the side whose decision it is: the author, or the other side for an action his
    // standing orders gave (`ordered`: no card is named, none of his hidden cards is touched).
    Step apply(int author, int actorSide, bool ordered, const QString& text, const QString& revealClaim,
               bool checkReveal, const QByteArray& vAuthor, const QByteArray& vOther, bool allowWait,
               std::vector<int8_t>* rolled, bool* used, QString* error) {
        const qsizetype i = actions.size();
        if (s.gameOver) {
            *error = QStringLiteral("action %1 '%2' comes after the end of the game: an injected action")
                         .arg(i)
                         .arg(text);
            return Step::Failed;
        }
        if (states && states->empty() && i == statesFrom)
            states->push_back(s);
        const int actor = engine.actor(s);
        if (actor != actorSide) {
            *error =
                QStringLiteral("action %1 '%2' is a decision of the %3 player, but the file is the %4 "
                               "player's: an injected (or reordered) action")
                    .arg(i)
                    .arg(text, actor >= 0 ? sideName(actor) : QStringLiteral("(nobody)"), sideName(author));
            return Step::Failed;
        }
        if (key[author].isEmpty() && !ordered)
            substitute(d, s, author, text + QLatin1Char(' ') + revealClaim);
        const std::vector<CardPlace> placesBefore = s.cardPlace;
        QString why;
        auto a = parseAction(d, s, text, &why);
        if (!a) {
            *error =
                QStringLiteral("action %1 '%2' cannot be read (%3): an edited action").arg(i).arg(text, why);
            return Step::Failed;
        }
        const bool unknownSeed = vOther.isEmpty();
        const QByteArray seed = sha(
            {"dice", gameId, QByteArray::number(i), vAuthor, unknownSeed ? QByteArray("unknown") : vOther});
        GameState before;
        if (unknownSeed)
            before = s;
        const std::vector<int16_t> oldPile[2] = {s.drawPile[0], s.drawPile[1]};
        const std::vector<int16_t> oldHand[2] = {s.hand[0], s.hand[1]};
        s.rng.reseed(u64(seed));
        s.forcedDice = diceFrom(seed);
        Log log;
        const bool tell = (happened && i >= happenedFrom) || (logs && i >= statesFrom);
        const ApplyResult r = engine.apply(s, *a, tell ? &log : nullptr);
        if (!r.ok) {
            *error = QStringLiteral("action %1 '%2' is not legal here (turn %3): %4 - an edited, omitted, "
                                    "reordered or injected action%5")
                         .arg(i)
                         .arg(text)
                         .arg(s.turn)
                         .arg(r.error, key[author].isEmpty()
                                           ? QString()
                                           : QStringLiteral(" (or a card the player did not hold)"));
            return Step::Failed;
        }
        const size_t left = s.forcedDice.size();
        s.forcedDice.clear();
        const std::vector<int8_t> all = diceFrom(seed);
        rolled->assign(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(kDicePerAction - left));
        *used = !rolled->empty() || !(s.rng == Rng(u64(seed)));
        if (unknownSeed && *used) {
            if (!allowWait) {
                *error = QStringLiteral("action %1 '%2' rolls dice that need the other side's next value")
                             .arg(i)
                             .arg(text);
                return Step::Failed;
            }
            s = before;
            return Step::Waiting;
        }
        if (checkReveal) {
            GameState b;
            b.cardPlace = placesBefore;
            const QString actual = revealedCards(d, b, s, author);
            if (actual != revealClaim) {
                *error =
                    QStringLiteral("action %1 '%2': the cards that left the %3 hand are [%4] but the file "
                                   "says [%5]: a card was hidden, invented or held without having it")
                        .arg(i)
                        .arg(text, sideName(author), actual, revealClaim);
                return Step::Failed;
            }
        }
        for (int side : {kCatholic, kProtestant})
            if (!key[side].isEmpty())
                rekeyAfter(s, side, key[side], oldPile[side], oldHand[side], i);
        actions << text;
        if (states && !states->empty())
            states->push_back(s);
        if (logs && i >= statesFrom)
            logs->push_back(log);
        for (const LogLine& l : log)
            lines << QStringLiteral("      ") + l.text;
        return Step::Ok;
    }

    // Processes file f (index >= 2). Returns false with *error.
    bool file(int f, QString* error) {
        const QJsonObject& o = files[static_cast<size_t>(f)];
        const int author = sideFrom(o);
        const int opp = other(author);
        const QJsonArray acts = o.value(QStringLiteral("actions")).toArray();
        const int fromAction = o.value(QStringLiteral("fromAction")).toInt(-1);
        if (fromAction != actions.size()) {
            *error =
                QStringLiteral("file %1 starts at action %2 but %3 actions were played before it: actions "
                               "were omitted or repeated")
                    .arg(f + 1)
                    .arg(fromAction)
                    .arg(actions.size());
            return false;
        }
        // the log hash: written by the sender's copy over every action so far
        QByteArray head = sha({"log", gameId});
        for (const QString& t : actions)
            head = sha({head, t.toUtf8()});
        for (const QJsonValue& v : acts)
            head = sha({head, v.toString().toUtf8()});
        if (head != hexField(o, "logHead")) {
            *error =
                QStringLiteral("file %1: the log hash does not match its actions: the actions were edited, "
                               "removed, added or reordered after the sender's copy wrote the file")
                    .arg(f + 1);
            return false;
        }
        const QByteArray vAuthor = chainOfFile(f);
        const QByteArray vOtherNow = latestBefore(opp, f);
        const QByteArray vOtherNext = nextValue(opp, f);
        const QJsonObject claimed = o.value(QStringLiteral("rolls")).toObject();
        const QJsonObject reveals = o.value(QStringLiteral("reveals")).toObject();
        StandingOrders oppOrders;
        if (!ordersBefore(opp, f, &oppOrders, error))
            return false;
        for (qsizetype j = 0; j < acts.size(); ++j) {
            const bool last = j == acts.size() - 1;
            if (last) {
                const QByteArray digest = publicDigest(s);
                debugDump(engine, s, digest);
                if (digest != hexField(o, "digest")) {
                    *error =
                        QStringLiteral("file %1: before action %2 the sender's game differs from this replay "
                                       "(public state hash %3, the sender's %4): a die, a card or a result "
                                       "was forged, or the two copies run different versions")
                            .arg(f + 1)
                            .arg(actions.size())
                            .arg(QString::fromLatin1(digest.left(12)),
                                 QString::fromLatin1(hexField(o, "digest").left(12)));
                    return false;
                }
            }
            std::vector<int8_t> rolled;
            bool used = false;
            const QString text = acts[j].toString();
            const qsizetype i = actions.size();
            const QString at = QString::number(actions.size());
            // A decision of the other side inside the author's file: his standing orders must give it.
            bool ordered = false;
            QString rule;
            if (!s.gameOver && engine.actor(s) == opp) {
                const std::optional<Action> want = oppOrders.choose(engine, s, opp, &rule);
                if (!want) {
                    *error =
                        QStringLiteral("file %1 (%2): action %3 '%4' is a decision of the %5 player, and his "
                                       "standing orders (%6) do not cover it: an injected (or reordered) "
                                       "action")
                            .arg(f + 1)
                            .arg(sideName(author))
                            .arg(i)
                            .arg(text, sideName(opp), oppOrders.text());
                    return false;
                }
                const QString wantText = formatAction(d, s, *want);
                if (wantText != text) {
                    *error =
                        QStringLiteral("file %1 (%2): action %3 '%4' was taken for the %5 player, but his "
                                       "standing order %6 gives '%7': the order was not followed (the "
                                       "action was edited, or the sender's copy chose for him)")
                            .arg(f + 1)
                            .arg(sideName(author))
                            .arg(i)
                            .arg(text, sideName(opp), rule, wantText);
                    return false;
                }
                ordered = true;
            }
            const Step st = apply(author, ordered ? opp : author, ordered, text, reveals.value(at).toString(),
                                  !last || reveals.contains(at), vAuthor, last ? vOtherNext : vOtherNow,
                                  last && f == static_cast<int>(files.size()) - 1, &rolled, &used, error);
            if (st == Step::Failed) {
                *error = QStringLiteral("file %1 (%2): ").arg(f + 1).arg(sideName(author)) + *error;
                return false;
            }
            if (st == Step::Waiting) {
                waiting = true;
                return true;
            }
            if (!last && used && dice == DiceMode::Sealed) {
                *error =
                    QStringLiteral("file %1: action %2 '%3' rolled dice (or shuffled) but does not end the "
                                   "file: in this game every roll waits for the other side's randomness "
                                   "(a die rolled by the sender alone)")
                        .arg(f + 1)
                        .arg(i)
                        .arg(text);
                return false;
            }
            // Standing orders never unseal a roll: a roll by an ordered action, or one after which the
            // decision passes to the other side, waits for the receiver's randomness (docs/pbem.md).
            if (!last && used && (ordered || (!s.gameOver && engine.actor(s) != author))) {
                *error = QStringLiteral(
                             "file %1: action %2 '%3' rolled dice (or shuffled) %4 but does not end the "
                             "file: that roll must wait for the other side's randomness (a die "
                             "rolled by the sender alone)")
                             .arg(f + 1)
                             .arg(i)
                             .arg(text, ordered ? QStringLiteral("by a standing order")
                                                : QStringLiteral("before a decision of the other side"));
                return false;
            }
            if (!last && (claimed.contains(at) || !rolled.empty()) &&
                claimed.value(at).toString() != diceText(rolled)) {
                *error = QStringLiteral("file %1: forged die: at action %2 '%3' the file says the dice were "
                                        "[%4], the committed randomness gives [%5]")
                             .arg(f + 1)
                             .arg(i)
                             .arg(text, claimed.value(at).toString(), diceText(rolled));
                return false;
            }
            if (happened && i >= happenedFrom) {
                happened->append(
                    QStringLiteral("  %1 (%2): %3%4%5")
                        .arg(i)
                        .arg(sideName(ordered ? opp : author), text,
                             ordered ? QStringLiteral("   (standing order %1)").arg(rule) : QString(),
                             rolled.empty() ? QString() : QStringLiteral("   dice ") + diceText(rolled)));
                *happened += lines;
            }
            lines.clear();
        }
        if (acts.isEmpty())
            debugDump(engine, s, publicDigest(s));
        if (acts.isEmpty() && publicDigest(s) != hexField(o, "digest")) {
            *error = QStringLiteral("file %1: the sender's game differs from this replay (public state hash)")
                         .arg(f + 1);
            return false;
        }
        filesDone = f + 1;
        return true;
    }
};

// ------------------------------------------------------------------ the session

PbemSession::PbemSession(std::shared_ptr<const GameData> data) : m_data(data), m_engine(std::move(data)) {}

QByteArray PbemSession::chainValue(int index) const {
    return chainAt(m_chainSeed, index);
}

int PbemSession::filesBy(int side, int upto) const {
    int n = 0;
    for (int k = 0; k < upto && k < static_cast<int>(m_files.size()); ++k)
        n += sideFrom(m_files[static_cast<size_t>(k)]) == side;
    return n;
}

bool PbemSession::create(const QString& scenario, const QStringList& options, int side, DiceMode dice,
                         QByteArray* startFile, QString* error) {
    if (!m_data->scenario(scenario)) {
        *error = QStringLiteral("unknown scenario '%1'").arg(scenario);
        return false;
    }
    GameOptions o;
    for (const QString& kv : options)
        if (!setOption(o, kv, error))
            return false;
    m_me = side;
    m_dice = dice;
    m_version = kPbemVersion;
    m_gameId = randomHex().left(16);
    m_deckSecret = randomHex();
    m_chainSeed = randomHex();
    m_nonce = randomHex();
    QJsonObject st;
    st[QStringLiteral("format")] = QStringLiteral("westphalia-pbem");
    st[QStringLiteral("version")] = m_version;
    st[QStringLiteral("kind")] = QStringLiteral("start");
    st[QStringLiteral("game")] = QString::fromLatin1(m_gameId);
    st[QStringLiteral("seq")] = 1;
    st[QStringLiteral("from")] = sideId(side);
    st[QStringLiteral("prev")] = QString();
    st[QStringLiteral("app")] = appVersion();
    st[QStringLiteral("data")] = QString::fromLatin1(m_data->fingerprint);
    st[QStringLiteral("scenario")] = scenario;
    st[QStringLiteral("options")] = QJsonArray::fromStringList(optionList(o));
    // the battle data of the rulesets its battles go to the table with (both players need the same)
    QJsonObject battleData;
    for (const QString& rules : tableRulesets(o))
        battleData[rules] = battle::battleDataHash(rules);
    if (!battleData.isEmpty())
        st[QStringLiteral("battleData")] = battleData;
    st[QStringLiteral("dice")] = dice == DiceMode::Open ? QStringLiteral("open") : QStringLiteral("sealed");
    st[QStringLiteral("deckCommit")] = QString::fromLatin1(sha({"deck-commit", m_gameId, m_deckSecret}));
    st[QStringLiteral("chain")] = QString::fromLatin1(chainValue(0));
    st[QStringLiteral("nonceCommit")] = QString::fromLatin1(sha({"nonce", m_gameId, m_nonce}));
    m_files = {st};
    m_pending.clear();
    *startFile = encodeFile(st);
    return refresh(error);
}

bool PbemSession::join(const QByteArray& startFile, const QString& name, QByteArray* joinFile,
                       QString* error) {
    QJsonObject st;
    if (!decodeFile(startFile, name, &st, error))
        return false;
    if (st.value(QStringLiteral("kind")).toString() != QLatin1String("start") ||
        st.value(QStringLiteral("seq")).toInt() != 1 || sideFrom(st) == kNone) {
        *error = QStringLiteral("%1: not a start file (kind %2, seq %3)")
                     .arg(name, st.value(QStringLiteral("kind")).toString())
                     .arg(st.value(QStringLiteral("seq")).toInt());
        return false;
    }
    if (hexField(st, "data") != m_data->fingerprint) {
        *error = QStringLiteral("%1: $.data: the host plays with other game data (fingerprint %2, yours %3): "
                                "both players need the same Westphalia data")
                     .arg(name, QString::fromLatin1(hexField(st, "data").left(16)),
                          QString::fromLatin1(m_data->fingerprint.left(16)));
        return false;
    }
    const QJsonObject battleData = st.value(QStringLiteral("battleData")).toObject();
    for (auto it = battleData.begin(); it != battleData.end(); ++it) {
        if (it.key() != QLatin1String("tvbd") && it.key() != QLatin1String("tercios")) {
            *error = QStringLiteral("%1: $.battleData.%2: not a ruleset (tvbd, tercios)").arg(name, it.key());
            return false;
        }
        if (it.value().toString() != battle::battleDataHash(it.key())) {
            *error =
                QStringLiteral("%1: $.battleData.%2: the host fights the battles with other battle data "
                               "(%3, yours %4): scenarios/battle-mapping.json, scenarios/battle-terrain.json "
                               "or resources/tactical/%2.json differ, and both players need the same")
                    .arg(name, it.key(), it.value().toString(), battle::battleDataHash(it.key()));
            return false;
        }
    }
    m_gameId = hexField(st, "game");
    m_version = st.value(QStringLiteral("version")).toInt(1);
    m_me = other(sideFrom(st));
    m_dice = st.value(QStringLiteral("dice")).toString() == QLatin1String("open") ? DiceMode::Open
                                                                                  : DiceMode::Sealed;
    m_deckSecret = randomHex();
    m_chainSeed = randomHex();
    m_nonce = randomHex();
    QJsonObject jn;
    jn[QStringLiteral("format")] = QStringLiteral("westphalia-pbem");
    jn[QStringLiteral("version")] = m_version;
    jn[QStringLiteral("kind")] = QStringLiteral("join");
    jn[QStringLiteral("game")] = QString::fromLatin1(m_gameId);
    jn[QStringLiteral("seq")] = 2;
    jn[QStringLiteral("from")] = sideId(m_me);
    jn[QStringLiteral("prev")] = QString::fromLatin1(fileHash(st));
    jn[QStringLiteral("app")] = appVersion();
    jn[QStringLiteral("deckCommit")] = QString::fromLatin1(sha({"deck-commit", m_gameId, m_deckSecret}));
    jn[QStringLiteral("chain")] = QString::fromLatin1(chainValue(0));
    jn[QStringLiteral("nonce")] = QString::fromLatin1(m_nonce);
    m_files = {st, jn};
    m_pending.clear();
    *joinFile = encodeFile(jn);
    return refresh(error);
}

bool PbemSession::saveTo(const QString& dir, QString* error) const {
    QDir().mkpath(dir);
    QJsonObject o;
    o[QStringLiteral("format")] = QStringLiteral("westphalia-pbem-session");
    o[QStringLiteral("version")] = kPbemVersion;
    o[QStringLiteral("side")] = sideId(m_me);
    o[QStringLiteral("deckSecret")] = QString::fromLatin1(m_deckSecret);
    o[QStringLiteral("chainSeed")] = QString::fromLatin1(m_chainSeed);
    o[QStringLiteral("nonce")] = QString::fromLatin1(m_nonce);
    o[QStringLiteral("revealed")] = m_revealed;
    o[QStringLiteral("pending")] = QJsonArray::fromStringList(m_pending);
    o[QStringLiteral("orders")] = m_orders.toJson();
    QJsonArray files;
    for (const QJsonObject& f : m_files)
        files.append(f);
    o[QStringLiteral("files")] = files;
    const QString path = dir + QStringLiteral("/session.json");
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(o).toJson()) < 0 || !f.commit()) {
        *error = QStringLiteral("%1: cannot write: %2").arg(path, f.errorString());
        return false;
    }
    QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return true;
}

bool PbemSession::loadFrom(const QString& dir, QString* error) {
    const QString path = dir + QStringLiteral("/session.json");
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: cannot read: %2").arg(path, f.errorString());
        return false;
    }
    QJsonParseError pe;
    const QJsonObject o = QJsonDocument::fromJson(f.readAll(), &pe).object();
    if (pe.error != QJsonParseError::NoError ||
        o.value(QStringLiteral("format")).toString() != QLatin1String("westphalia-pbem-session")) {
        *error = QStringLiteral("%1: not a PBEM session (%2)").arg(path, pe.errorString());
        return false;
    }
    if (o.value(QStringLiteral("version")).toInt(1) > kPbemVersion) {
        *error =
            QStringLiteral("%1: $.version: session of PBEM protocol %2, newer than this Westphalia reads "
                           "(1 to %3): update Westphalia")
                .arg(path)
                .arg(o.value(QStringLiteral("version")).toInt())
                .arg(kPbemVersion);
        return false;
    }
    m_me = o.value(QStringLiteral("side")).toString() == QLatin1String("catholic") ? kCatholic : kProtestant;
    m_deckSecret = hexField(o, "deckSecret");
    m_chainSeed = hexField(o, "chainSeed");
    m_nonce = hexField(o, "nonce");
    m_revealed = o.value(QStringLiteral("revealed")).toBool();
    m_pending.clear();
    for (const QJsonValue& v : o.value(QStringLiteral("pending")).toArray())
        m_pending << v.toString();
    m_files.clear();
    for (const QJsonValue& v : o.value(QStringLiteral("files")).toArray())
        m_files.push_back(v.toObject());
    if (m_files.empty()) {
        *error = QStringLiteral("%1: $.files: empty").arg(path);
        return false;
    }
    m_gameId = hexField(m_files[0], "game");
    m_version = m_files[0].value(QStringLiteral("version")).toInt(1);
    {
        auto orders = StandingOrders::fromJson(*m_data, o.value(QStringLiteral("orders")).toObject(),
                                               path + QStringLiteral(": $.orders"), error);
        if (!orders)
            return false;
        m_orders = *orders;
    }
    m_dice = m_files[0].value(QStringLiteral("dice")).toString() == QLatin1String("open") ? DiceMode::Open
                                                                                          : DiceMode::Sealed;
    if (!refresh(error)) {
        *error = path + QStringLiteral(": ") + *error;
        return false;
    }
    return true;
}

// Rebuilds this side's view from the files and the pending actions.
bool PbemSession::refresh(QString* error) {
    m_oppSecret.clear();
    for (const QJsonObject& f : m_files)
        if (sideFrom(f) == other(m_me) && f.contains(QStringLiteral("reveal")))
            m_oppSecret = hexField(f, "reveal");
    Replay r(*m_data, m_engine, m_files);
    r.me = m_me;
    r.myChain = m_chainSeed;
    r.myNonce = m_nonce;
    r.secret[m_me] = m_deckSecret;
    r.secret[other(m_me)] = m_oppSecret;
    if (!r.start(error))
        return false;
    m_built = r.built;
    m_waiting = false;
    m_stop = false;
    m_sealedLast = false;
    m_actions.clear();
    m_pendingRolls.clear();
    m_pendingReveals.clear();
    m_pendingOrdered.clear();
    m_oppOrders = StandingOrders();
    if (r.built && !r.ordersBefore(other(m_me), static_cast<int>(m_files.size()), &m_oppOrders, error))
        return false;
    if (!r.built) {
        m_view = GameState{};
        return true;
    }
    for (int f = 2; f < static_cast<int>(m_files.size()); ++f) {
        if (!r.file(f, error))
            return false;
        if (r.waiting)
            break;
    }
    m_waiting = r.waiting;
    m_actions = r.actions;
    m_myKey = r.key[m_me];
    m_view = r.s;
    m_beforeLastPending = r.s;
    // this side's actions not yet sent (the same steps as play())
    const QStringList pending = m_pending;
    m_pending.clear();
    for (const QString& t : pending) {
        QString why;
        ApplyResult res{false, QString(), false};
        if (canPlay()) {
            auto a = parseAction(*m_data, m_view, t, &why);
            QString attachment;
            splitAttachment(t, &attachment);
            res = a ? step(*a, false, nullptr, attachment) : ApplyResult{false, why, false};
        } else if (myBall() && !m_stop && !m_waiting && !m_view.gameOver &&
                   m_engine.actor(m_view) == other(m_me)) {
            const std::optional<Action> a = m_oppOrders.choose(m_engine, m_view, other(m_me));
            if (a && formatAction(*m_data, m_view, *a) == t)
                res = step(*a, true, nullptr);
            else
                res.error = QStringLiteral("the opponent's standing orders (%1) do not give it")
                                .arg(m_oppOrders.text());
        } else
            res.error = QStringLiteral("not this side's decision now");
        if (!res.ok) {
            *error = QStringLiteral("the pending action '%1' cannot be replayed: %2").arg(t, res.error);
            return false;
        }
    }
    applyOrders();
    return true;
}

bool PbemSession::myBall() const {
    if (m_files.empty() || (m_revealed && !m_oppSecret.isEmpty()))
        return false;
    return sideFrom(m_files.back()) != m_me;
}

bool PbemSession::canPlay() const {
    return myBall() && m_built && !m_stop && !m_waiting && !m_revealed && !m_view.gameOver &&
           m_engine.actor(m_view) == m_me;
}

std::vector<Action> PbemSession::legalActions() const {
    return canPlay() ? m_engine.legalActions(m_view) : std::vector<Action>{};
}

ApplyResult PbemSession::play(const Action& a, bool* sealed, const QString& attachment) {
    ApplyResult res;
    if (!canPlay()) {
        res.error = QStringLiteral("not this side's decision now");
        return res;
    }
    if (!attachment.isEmpty() && !attachmentAllowed(a, attachment, &res.error))
        return res;
    res = step(a, false, sealed, attachment);
    if (res.ok)
        applyOrders();
    return res;
}

void PbemSession::applyOrders() {
    const int opp = other(m_me);
    for (int guard = 0; guard < 100000; ++guard) {
        if (!myBall() || !m_built || m_stop || m_waiting || m_revealed || m_view.gameOver ||
            m_engine.actor(m_view) != opp)
            return;
        const std::optional<Action> a = m_oppOrders.choose(m_engine, m_view, opp);
        if (!a || !step(*a, true, nullptr).ok) {
            m_stop = true; // the decision passes to the opponent: the file goes now
            return;
        }
    }
}

ApplyResult PbemSession::step(const Action& a, bool ordered, bool* sealed, const QString& attachment) {
    ApplyResult res;
    const int i = static_cast<int>(m_actions.size() + m_pending.size());
    const QByteArray vMe = chainValue(filesBy(m_me, static_cast<int>(m_files.size())));
    QByteArray vOpp;
    for (auto it = m_files.rbegin(); it != m_files.rend(); ++it)
        if (sideFrom(*it) != m_me) {
            vOpp = hexField(*it, "chain");
            break;
        }
    const QString text = formatAction(*m_data, m_view, a);
    const QByteArray seed = sha({"dice", m_gameId, QByteArray::number(i), vMe, vOpp});
    const GameState before = m_view;
    m_view.rng.reseed(u64(seed));
    m_view.forcedDice = diceFrom(seed);
    res = m_engine.apply(m_view, a);
    if (!res.ok) {
        m_view = before;
        return res;
    }
    const size_t left = m_view.forcedDice.size();
    m_view.forcedDice.clear();
    const std::vector<int8_t> all = diceFrom(seed);
    const std::vector<int8_t> rolled(all.begin(),
                                     all.begin() + static_cast<std::ptrdiff_t>(kDicePerAction - left));
    const bool used = !rolled.empty() || !(m_view.rng == Rng(u64(seed)));
    // the decision leaves this side (to the opponent, his orders covering it or not)
    const bool handOver = m_view.gameOver || m_engine.actor(m_view) != m_me;
    m_pending << (attachment.isEmpty() ? text : text + QStringLiteral(" @") + attachment);
    m_pendingOrdered << ordered;
    m_beforeLastPending = before;
    if (used && (m_dice == DiceMode::Sealed || handOver || ordered)) {
        // the roll waits for the receiver's randomness: not resolved in this copy
        m_sealedLast = true;
        m_pendingRolls << QString();
        // the cards this action takes out of the hand, as far as the provisional roll shows (they do
        // not depend on the dice in the rules implemented: holding a card, playing one)
        m_pendingReveals << revealedCards(*m_data, before, m_view, m_me);
        m_view = before;
        m_stop = true;
        if (sealed)
            *sealed = true;
        return res;
    }
    rekeyAfter(m_view, m_me, m_myKey, before.drawPile[m_me], before.hand[m_me], i);
    m_pendingRolls << diceText(rolled);
    m_pendingReveals << revealedCards(*m_data, before, m_view, m_me);
    if (m_view.gameOver)
        m_stop = true; // (a decision of the opponent: applyOrders takes it or stops the file)
    return res;
}

bool PbemSession::ordersAllowed() const {
    return m_version >= kOrdersVersion;
}

bool PbemSession::setMyOrders(const StandingOrders& orders, QString* error) {
    if (!ordersAllowed()) {
        *error =
            QStringLiteral("this game was started with PBEM protocol %1: standing orders need protocol %2 "
                           "(start a new game)")
                .arg(m_version)
                .arg(kOrdersVersion);
        return false;
    }
    m_orders = orders;
    return true;
}

StandingOrders PbemSession::sentOrders() const {
    Replay r(*m_data, m_engine, m_files);
    StandingOrders out;
    QString ignore;
    r.ordersBefore(m_me, static_cast<int>(m_files.size()), &out, &ignore);
    return out;
}

QString PbemSession::nextFileName() const {
    return QStringLiteral("%1-t%2-%3-s%4.pbem")
        .arg(QString::fromLatin1(m_gameId.left(8)))
        .arg(m_built ? m_view.turn : 0)
        .arg(sideId(m_me))
        .arg(m_files.size() + 1);
}

bool PbemSession::exportFile(QByteArray* bytes, QString* fileName, bool reveal, QString* error) {
    if (!myBall()) {
        *error = m_files.empty()
                     ? QStringLiteral("no game")
                     : QStringLiteral("the last file (%1) is this side's: wait for the opponent's "
                                      "file and import it first")
                           .arg(m_files.size());
        return false;
    }
    if (!m_built && !(m_me == sideFrom(m_files[0]) && m_files.size() == 2)) {
        *error = QStringLiteral("the game is not set up yet");
        return false;
    }
    if (canPlay() && !reveal) {
        *error = QStringLiteral("it is still this side's decision (%1): play on before sending")
                     .arg(m_engine.prompt(m_view));
        return false;
    }
    *fileName = nextFileName();
    QJsonObject o;
    o[QStringLiteral("format")] = QStringLiteral("westphalia-pbem");
    o[QStringLiteral("version")] = m_version;
    o[QStringLiteral("kind")] = QStringLiteral("turn");
    o[QStringLiteral("game")] = QString::fromLatin1(m_gameId);
    o[QStringLiteral("seq")] = static_cast<int>(m_files.size()) + 1;
    o[QStringLiteral("from")] = sideId(m_me);
    o[QStringLiteral("prev")] = QString::fromLatin1(fileHash(m_files.back()));
    o[QStringLiteral("turn")] = m_built ? m_view.turn : 0;
    o[QStringLiteral("chain")] =
        QString::fromLatin1(chainValue(filesBy(m_me, static_cast<int>(m_files.size()))));
    if (m_me == sideFrom(m_files[0]) && filesBy(m_me, static_cast<int>(m_files.size())) == 1)
        o[QStringLiteral("nonce")] = QString::fromLatin1(m_nonce);
    o[QStringLiteral("fromAction")] = static_cast<int>(m_actions.size());
    o[QStringLiteral("actions")] = QJsonArray::fromStringList(m_pending);
    QJsonObject rolls;
    for (qsizetype j = 0; j + 1 < m_pending.size(); ++j)
        if (!m_pendingRolls.value(j).isEmpty())
            rolls[QString::number(m_actions.size() + j)] = m_pendingRolls[j];
    o[QStringLiteral("rolls")] = rolls;
    QJsonObject reveals; // the cards that left this side's hand (played, discarded): now public
    for (qsizetype j = 0; j < m_pending.size(); ++j)
        if (m_pendingReveals.value(j) != QLatin1String("?"))
            reveals[QString::number(m_actions.size() + j)] = m_pendingReveals.value(j);
    o[QStringLiteral("reveals")] = reveals;
    QByteArray head = sha({"log", m_gameId});
    for (const QString& t : m_actions)
        head = sha({head, t.toUtf8()});
    for (const QString& t : m_pending)
        head = sha({head, t.toUtf8()});
    o[QStringLiteral("logHead")] = QString::fromLatin1(head);
    const GameState& claim = m_pending.isEmpty() || !m_built ? m_view : m_beforeLastPending;
    o[QStringLiteral("digest")] = QString::fromLatin1(publicDigest(claim));
    if (m_built)
        debugDump(m_engine, claim, publicDigest(claim));
    if (reveal)
        o[QStringLiteral("reveal")] = QString::fromLatin1(m_deckSecret);
    if (ordersAllowed()) // this side's standing orders, in force from this file on (public)
        o[QStringLiteral("orders")] = m_orders.toJson();
    m_files.push_back(o);
    const QStringList pending = m_pending;
    const bool wasRevealed = m_revealed;
    m_pending.clear();
    m_revealed = m_revealed || reveal;
    if (!refresh(error)) {
        m_files.pop_back();
        m_pending = pending;
        m_revealed = wasRevealed;
        refresh(error);
        return false;
    }
    *bytes = encodeFile(o);
    return true;
}

bool PbemSession::importFile(const QByteArray& bytes, const QString& name, QString* error,
                             QStringList* happened) {
    QJsonObject o;
    if (!decodeFile(bytes, name, &o, error))
        return false;
    auto problem = [&](const QString& what) {
        *error = name + QStringLiteral(": ") + what;
        return false;
    };
    if (m_files.empty())
        return problem(QStringLiteral("no game in this directory: create or join one first"));
    if (hexField(o, "game") != m_gameId)
        return problem(QStringLiteral("this file belongs to another game (%1; this game is %2)")
                           .arg(o.value(QStringLiteral("game")).toString(), gameId()));
    const int seq = o.value(QStringLiteral("seq")).toInt(-1);
    const int expect = static_cast<int>(m_files.size()) + 1;
    const QByteArray hash = fileHash(o);
    if (seq >= 1 && seq < expect) {
        if (fileHash(m_files[static_cast<size_t>(seq - 1)]) == hash)
            return problem(
                QStringLiteral("a replayed old file: file %1 was already %2 (same content); the game "
                               "is at file %3")
                    .arg(seq)
                    .arg(sideFrom(o) == m_me ? QStringLiteral("sent by this side")
                                             : QStringLiteral("imported"))
                    .arg(expect - 1));
        return problem(
            QStringLiteral("forked history: this is another version of file %1, which differs from "
                           "the file %1 %2 earlier; the sender's copy went back and played "
                           "differently")
                .arg(seq)
                .arg(sideFrom(m_files[static_cast<size_t>(seq - 1)]) == m_me
                         ? QStringLiteral("this side sent")
                         : QStringLiteral("imported")));
    }
    if (seq > expect)
        return problem(QStringLiteral("a file is missing: this is file %1 but the next one is %2 (import the "
                                      "files in order)")
                           .arg(seq)
                           .arg(expect));
    if (seq != expect)
        return problem(QStringLiteral("$.seq: expected %1").arg(expect));
    const int from = sideFrom(o);
    if (from == m_me)
        return problem(QStringLiteral("this file was written by this side (%1): send it to the opponent")
                           .arg(sideName(m_me)));
    if (sideFrom(m_files.back()) != m_me)
        return problem(QStringLiteral("it is this side's turn to send a file (the last file, %1, is the "
                                      "opponent's): two files from the same side in a row")
                           .arg(expect - 1));
    if (hexField(o, "prev") != fileHash(m_files.back()))
        return problem(
            QStringLiteral("forked history: file %1 does not continue file %2 as this side sent it "
                           "(hash of the previous file differs): file %2 was changed on its way to the "
                           "opponent (its actions, dice or standing orders), or this file answers another "
                           "version of the game")
                .arg(seq)
                .arg(seq - 1));
    const QString kind = o.value(QStringLiteral("kind")).toString();
    if (m_files.size() == 1) {
        if (kind != QLatin1String("join"))
            return problem(QStringLiteral("expected the guest's answer to the start file (kind join), got %1")
                               .arg(kind));
        if (hexField(o, "chain").size() != 64 || hexField(o, "deckCommit").size() != 64 ||
            hexField(o, "nonce").size() != 64)
            return problem(QStringLiteral("the join file lacks its commitments (chain, deckCommit, nonce)"));
    } else {
        if (kind != QLatin1String("turn"))
            return problem(QStringLiteral("$.kind: expected a turn file, got %1").arg(kind));
        // the dice chain: the value must hash to the author's previous one (committed at the start)
        QByteArray prevChain;
        for (auto it = m_files.rbegin(); it != m_files.rend(); ++it)
            if (sideFrom(*it) == from) {
                prevChain = hexField(*it, "chain");
                break;
            }
        if (!chainFollows(prevChain, hexField(o, "chain")))
            return problem(
                QStringLiteral("forged randomness: the file's dice value does not hash to the value "
                               "the %1 player committed to before (a die chosen or re-rolled)")
                    .arg(sideName(from)));
        if (o.value(QStringLiteral("version")).toInt(1) != m_version)
            return problem(QStringLiteral("$.version: a protocol %1 file in a game of protocol %2")
                               .arg(o.value(QStringLiteral("version")).toInt(1))
                               .arg(m_version));
        if (o.contains(QStringLiteral("orders"))) {
            if (m_version < kOrdersVersion)
                return problem(QStringLiteral("$.orders: standing orders in a game of protocol %1 (they need "
                                              "protocol %2)")
                                   .arg(m_version)
                                   .arg(kOrdersVersion));
            QString why;
            if (!o.value(QStringLiteral("orders")).isObject() ||
                !StandingOrders::fromJson(*m_data, o.value(QStringLiteral("orders")).toObject(),
                                          QStringLiteral("$.orders"), &why))
                return problem(why.isEmpty() ? QStringLiteral("$.orders: expected an object") : why);
        }
        if (o.contains(QStringLiteral("reveal")) &&
            sha({"deck-commit", m_gameId, hexField(o, "reveal")}) !=
                hexField(m_files[from == sideFrom(m_files[0]) ? 0 : 1], "deckCommit"))
            return problem(
                QStringLiteral("the revealed deck secret does not match the %1 player's commitment: "
                               "a forged secret")
                    .arg(sideName(from)));
    }
    const qsizetype before = m_actions.size();
    m_files.push_back(o);
    QString why;
    QStringList lines;
    if (!refresh(&why) || !checkRecords(static_cast<int>(before), &why)) {
        m_files.pop_back();
        QString again;
        refresh(&again);
        return problem(why);
    }
    if (happened) {
        // the opponent's actions (and this side's last one if it waited for this file), with their dice
        Replay r(*m_data, m_engine, m_files);
        r.me = m_me;
        r.myChain = m_chainSeed;
        r.myNonce = m_nonce;
        r.secret[m_me] = m_deckSecret;
        r.secret[other(m_me)] = m_oppSecret;
        r.happened = happened;
        r.happenedFrom = static_cast<int>(std::min<qsizetype>(before, m_actions.size()));
        QString ignore;
        if (r.start(&ignore) && r.built)
            for (int f = 2; f < static_cast<int>(m_files.size()) && !r.waiting; ++f)
                if (!r.file(f, &ignore))
                    break;
    }
    return true;
}

bool PbemSession::checkRecords(int from, QString* error) const {
    bool any = false; // most files carry no table result: no second replay for them
    for (qsizetype i = from; i < m_actions.size() && !any; ++i)
        any = m_actions[i].startsWith(QLatin1String("battle-result ")) &&
              m_actions[i].contains(QLatin1String(" @"));
    if (!any)
        return true;
    std::vector<GameState> states;
    QStringList texts;
    if (!stepStates(from, &states, &texts, error))
        return false;
    for (qsizetype k = 0; k < texts.size(); ++k) {
        QString attachment;
        splitAttachment(texts[k], &attachment);
        if (attachment.isEmpty())
            continue;
        // the author is the side whose decision it was; the receiver is this side
        const int receiver = m_engine.actor(states[static_cast<size_t>(k)]) == m_me ? kNone : m_me;
        QString why;
        if (!battle::checkAttachedResult(*m_data, states[static_cast<size_t>(k)], texts.mid(k), receiver,
                                         nullptr, &why)) {
            *error = QStringLiteral("action %1 '%2': %3")
                         .arg(from + k)
                         .arg(texts[k].section(QStringLiteral(" @"), 0, 0), why);
            return false;
        }
    }
    return true;
}

bool PbemSession::stepStates(int from, std::vector<GameState>* states, QStringList* texts, QString* error,
                             std::vector<Log>* logs) const {
    states->clear();
    if (logs)
        logs->clear();
    Replay r(*m_data, m_engine, m_files);
    r.me = m_me;
    r.myChain = m_chainSeed;
    r.myNonce = m_nonce;
    r.secret[m_me] = m_deckSecret;
    r.secret[other(m_me)] = m_oppSecret;
    r.states = states;
    r.statesFrom = from;
    r.logs = logs;
    if (!r.start(error))
        return false;
    if (!r.built) {
        *error = QStringLiteral("the game is not set up yet");
        return false;
    }
    for (int f = 2; f < static_cast<int>(m_files.size()) && !r.waiting; ++f)
        if (!r.file(f, error))
            return false;
    if (states->empty() && r.actions.size() == from)
        states->push_back(r.s);
    if (texts)
        *texts = r.actions.mid(from);
    if (states->empty()) {
        *error = QStringLiteral("no action %1 (the game has %2)").arg(from).arg(r.actions.size());
        return false;
    }
    return true;
}

QString PbemSession::status() const {
    QStringList l;
    l << QStringLiteral("game %1, you play %2, %3 dice, %4 files exchanged")
             .arg(gameId(), sideName(m_me),
                  m_dice == DiceMode::Sealed ? QStringLiteral("sealed") : QStringLiteral("open"))
             .arg(m_files.size());
    if (!m_built) {
        l << (myBall() ? QStringLiteral("send your next file (export-turn): the game starts with it")
                       : QStringLiteral("waiting for the opponent's file"));
        return l.join(QLatin1Char('\n'));
    }
    l << QStringLiteral("turn %1, VP %2, %3 actions played")
             .arg(m_view.turn)
             .arg(m_view.vp)
             .arg(m_actions.size());
    if (m_view.gameOver)
        l << QStringLiteral("game over: %1").arg(m_view.result);
    if (m_revealed && !m_oppSecret.isEmpty())
        l << QStringLiteral("both secrets revealed: run verify for the whole game");
    else if (!myBall())
        l << QStringLiteral("waiting for the opponent's file%1")
                 .arg(m_waiting ? QStringLiteral(" (it also resolves the dice of your last action)")
                                : QString());
    else if (canPlay())
        l << QStringLiteral("your decision: %1").arg(m_engine.prompt(m_view));
    else
        l << QStringLiteral("send your file now (export-turn): %1")
                 .arg(m_view.gameOver || m_revealed
                          ? QStringLiteral("the game is over, reveal your secret with --reveal")
                      : m_sealedLast && !m_pendingOrdered.isEmpty() && m_pendingOrdered.back()
                          ? QStringLiteral(
                                "the last action, taken for the opponent by his standing orders, rolls "
                                "dice with his randomness")
                      : m_sealedLast
                          ? QStringLiteral("your last action rolls dice with the opponent's randomness")
                          : QStringLiteral("the decision passes to the opponent"));
    if (!m_pending.isEmpty()) {
        const auto ordered = std::count(m_pendingOrdered.begin(), m_pendingOrdered.end(), true);
        l << (ordered ? QStringLiteral("%1 action(s) not sent yet, %2 of them taken for the opponent by his "
                                       "standing orders")
                            .arg(m_pending.size())
                            .arg(ordered)
                      : QStringLiteral("%1 action(s) not sent yet").arg(m_pending.size()));
    }
    if (ordersAllowed())
        l << QStringLiteral("standing orders: yours %1; the opponent's %2")
                 .arg(m_orders == sentOrders()
                          ? m_orders.text()
                          : m_orders.text() + QStringLiteral(" (sent with your next file)"),
                      m_oppOrders.text());
    return l.join(QLatin1Char('\n'));
}

bool PbemSession::verifyGame(QString* report) const {
    QStringList out;
    if (m_oppSecret.isEmpty() || !m_revealed) {
        *report =
            QStringLiteral("the hidden cards cannot be verified yet: %1 secret is not revealed (export "
                           "with --reveal at the end of the game). Verified so far on every import: the "
                           "file sequence and hashes, the dice chains, the dice, the legality of every "
                           "action with stand-in cards for the opponent's hand.")
                .arg(m_oppSecret.isEmpty() ? QStringLiteral("the opponent's") : QStringLiteral("your"));
        return false;
    }
    Replay r(*m_data, m_engine, m_files);
    r.me = kNone;
    r.secret[m_me] = m_deckSecret;
    r.secret[other(m_me)] = m_oppSecret;
    QString error;
    if (!r.start(&error) || !r.built) {
        *report = QStringLiteral("FAILED: %1").arg(error);
        return false;
    }
    for (int f = 2; f < static_cast<int>(m_files.size()); ++f) {
        if (!r.file(f, &error)) {
            *report =
                QStringLiteral("FAILED with both secrets (the true hands and draw piles): %1").arg(error);
            return false;
        }
        if (r.waiting)
            break;
    }
    out << QStringLiteral("whole game verified with both revealed secrets:");
    out << QStringLiteral("  %1 files in sequence, each continuing the previous one's hash")
               .arg(m_files.size());
    out << QStringLiteral(
        "  both deck secrets match the commitments made before the other side's nonce was known");
    out << QStringLiteral("  both dice hash chains follow from their committed first values");
    out << QStringLiteral(
               "  %1 actions, each legal with the true hands and draw piles, each by the player whose "
               "decision it was")
               .arg(r.actions.size());
    out << QStringLiteral("  every claimed die and every public state hash matches");
    out << QStringLiteral("  final state: turn %1, VP %2%3")
               .arg(r.s.turn)
               .arg(r.s.vp)
               .arg(r.s.gameOver ? QStringLiteral(", ") + r.s.result : QStringLiteral(", game not finished"));
    if (r.actions.size() != m_actions.size())
        out << QStringLiteral(
                   "  (this copy has resolved %1 actions: the last one rolls with a value only this "
                   "side has sent or will send)")
                   .arg(m_actions.size());
    else if (publicDigest(r.s) != publicDigest(m_view)) {
        out << QStringLiteral("  BUT this side's view differs from the verified game in its public state");
        *report = out.join(QLatin1Char('\n'));
        return false;
    }
    *report = out.join(QLatin1Char('\n'));
    return true;
}

} // namespace wp::save
