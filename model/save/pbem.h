// Play by e-mail (issue 7, docs/pbem.md): two copies of the game exchange files; each copy holds only its
// own side's secrets. The protocol and its threat table are in docs/pbem.md; in short:
//  - start files: the host's (scenario, options, its commitments: deck secret, dice hash chain, nonce),
//    the guest's answer (its commitments and its nonce), then the host's first turn file reveals its nonce;
//  - turn files: the actions since the last file, a sequence number, the hash of the previous file, the
//    next value of the author's dice hash chain, the dice it saw and a hash of the public state;
//  - each side's shuffles derive from its committed secret and the other side's nonce: the opponent's
//    copy holds a stand-in arrangement of the unknown cards (substituted when a card is played) until the
//    secrets are revealed at the end, when the whole game is replayed and verified with the true hands;
//  - dice of action i derive from the author's and the other side's hash-chain values; the last action of
//    a file (a hand-over) uses the receiver's *next* value, which nobody but the receiver knows.
// The engine is not changed: the session re-seeds GameState::rng and fills GameState::forcedDice before
// every action and re-arranges its own side's unknown cards after engine shuffles (see pbem.cpp).
#pragma once

#include "rules/engine.h"
#include "save/orders.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <memory>
#include <vector>

namespace wp::save {

enum class DiceMode {
    Sealed, // every action that rolls (or shuffles) ends the file; its dice use the receiver's next value
    Open    // dice inside a file use values the author already knows (foreseeable by him); only the last
            // action of a file is sealed: fewer e-mails
};

// TESTS ONLY (docs/pbem.md "Tests"): the secrets of the sessions created or joined after this call (game
// id, deck secret, dice chain seed, nonce) come from a generator seeded with `seed` instead of the operating
// system's, so a test of two copies plays the same game every run. A known seed makes every secret
// guessable: the app and the CLI never call this (no option, no environment variable reaches it), and each
// call says so on stderr. 0 restores the operating system's generator.
void setTestSecretsSeed(quint64 seed);
// TESTS ONLY: setTestSecretsSeed(seed) for the scope's lifetime, then the operating system's generator again.
struct TestSecretsScope {
    explicit TestSecretsScope(quint64 seed) { setTestSecretsSeed(seed); }
    ~TestSecretsScope() { setTestSecretsSeed(0); }
    TestSecretsScope(const TestSecretsScope&) = delete;
    TestSecretsScope& operator=(const TestSecretsScope&) = delete;
};

// The public part of a state: everything except the order and split of the hidden cards (hands, draw
// piles) and the random generator. Two honest copies agree on it after every action.
QByteArray publicDigest(const rules::GameState& s);

class PbemSession {
  public:
    explicit PbemSession(std::shared_ptr<const GameData> data);

    // ---- starting
    // The host: creates the game and its start file.
    bool create(const QString& scenario, const QStringList& options, int side, DiceMode dice,
                QByteArray* startFile, QString* error);
    // The guest: reads the host's start file and writes its answer.
    bool join(const QByteArray& startFile, const QString& name, QByteArray* joinFile, QString* error);

    // ---- the session directory (session.json holds this side's secrets: keep it private)
    bool saveTo(const QString& dir, QString* error) const;
    bool loadFrom(const QString& dir, QString* error);

    // ---- files
    // Verifies and imports the opponent's file. On any problem nothing changes and *error explains in
    // words what is wrong (edited, omitted, reordered or injected action, forged die, replayed old file,
    // forked history, ...). `happened` receives the log lines of the opponent's actions.
    bool importFile(const QByteArray& bytes, const QString& name, QString* error,
                    QStringList* happened = nullptr);
    // Writes the next file: this side's actions since its last file. `reveal` adds this side's deck
    // secret (at the end of the game, or to end it by agreement): the game can then be verified whole.
    bool exportFile(QByteArray* bytes, QString* fileName, bool reveal, QString* error);
    // Suggested file name: <game>-t<turn>-<side>-s<seq>.pbem
    QString nextFileName() const;

    // ---- playing
    bool started() const { return m_built; } // the game exists (all start material known)
    int mySide() const { return m_me; }
    QString gameId() const { return QString::fromLatin1(m_gameId); }
    DiceMode diceMode() const { return m_dice; }
    const rules::Engine& engine() const { return m_engine; }
    const rules::GameState& state() const { return m_view; } // this side's view
    bool myBall() const;                                     // the next file is this side's to send
    bool canPlay() const;                                    // this side may act now
    bool mustExport() const { return myBall() && !canPlay(); }
    std::vector<rules::Action> legalActions() const;
    // Applies one of this side's legal actions. In a sealed game an action that rolls is not resolved
    // here: it ends the file and the receiver's copy resolves it (*sealed = true).
    // `attachment`: the evidence of a table result (docs/actions.md "Attachments"), sent with its action.
    rules::ApplyResult play(const rules::Action& a, bool* sealed = nullptr, const QString& attachment = {});
    QStringList pendingActions() const { return m_pending; }
    // Of the pending actions, those taken for the opponent by his standing orders (same indices).
    QList<bool> pendingOrdered() const { return m_pendingOrdered; }
    // The last pending action rolls dice that wait for the receiver's randomness (sealed).
    bool lastActionSealed() const { return m_sealedLast; }

    // ---- standing orders (docs/pbem.md "Standing orders"; protocol 2 games only)
    int protocolVersion() const { return m_version; } // the game's protocol (its start file's)
    bool ordersAllowed() const;
    // This side's orders: they go out, in clear, in its next file and hold from then on.
    const StandingOrders& myOrders() const { return m_orders; }
    bool setMyOrders(const StandingOrders& orders, QString* error);
    // The opponent's orders in force for this side's next file (from his latest file).
    const StandingOrders& opponentOrders() const { return m_oppOrders; }
    // The orders of this side in force for the opponent's next file (from this side's latest file).
    StandingOrders sentOrders() const;
    QStringList allActions() const { return m_actions; } // every resolved action, in order
    int fileCount() const { return static_cast<int>(m_files.size()); }
    QString status() const; // a few lines for people
    bool opponentRevealed() const { return !m_oppSecret.isEmpty(); }
    bool iRevealed() const { return m_revealed; }

    // Replays the whole game with both sides' revealed secrets: every action legal with the true hands
    // and draw piles, every file's dice and public state as claimed. *report says what was checked.
    bool verifyGame(QString* report) const;

    // The step-through of "what happened since my last turn", forward and backward: this side's view
    // before action `from` and after each later resolved action (states[k] is after texts[k-1]); with
    // `logs`, the engine's log lines of each of those actions (logs[k] those of texts[k]: the game's
    // history, battle::BattleReporter).
    bool stepStates(int from, std::vector<rules::GameState>* states, QStringList* texts, QString* error,
                    std::vector<rules::Log>* logs = nullptr) const;

    // For tests: the files (parsed) in order, and this side's view of a side's hand.
    const std::vector<QJsonObject>& files() const { return m_files; }

  private:
    struct Replay; // pbem.cpp
    bool rebuild(QString* error, QStringList* happened, int fromAction, bool truth, rules::GameState* out,
                 QStringList* report) const;
    bool refresh(QString* error);
    // One action in this copy, this side's or (ordered) the opponent's by his standing orders.
    rules::ApplyResult step(const rules::Action& a, bool ordered, bool* sealed,
                            const QString& attachment = {});
    // The records attached to the table results of the actions from `from` on (the file just imported):
    // each replayed and checked against the result that follows it (battle::checkAttachedResult).
    bool checkRecords(int from, QString* error) const;
    // Takes every decision of the opponent his standing orders cover; stops the file at one they do not.
    void applyOrders();
    QByteArray chainValue(int index) const; // this side's dice chain value `index`
    int filesBy(int side, int uptoFile) const;

    std::shared_ptr<const GameData> m_data;
    rules::Engine m_engine;
    // identity and secrets
    QByteArray m_gameId;
    int m_me = rules::kCatholic;
    QByteArray m_deckSecret, m_chainSeed, m_nonce; // hex; never in a file before the reveal
    bool m_revealed = false;
    QByteArray m_oppSecret; // the opponent's revealed deck secret (hex)
    QByteArray m_myKey;     // this side's deck key (its secret + the opponent's nonce)
    DiceMode m_dice = DiceMode::Sealed;
    int m_version = 2;          // the game's protocol version
    StandingOrders m_orders;    // this side's (sent with its next file)
    StandingOrders m_oppOrders; // the opponent's in force (refresh)
    // the exchange
    std::vector<QJsonObject> m_files;
    QStringList m_pending; // this side's actions not yet sent
    // derived (refresh)
    bool m_built = false;
    bool m_waiting = false; // a sealed roll of this side's last file awaits the reply
    bool m_stop = false;    // the pending actions must be sent now
    rules::GameState m_view;
    rules::GameState m_beforeLastPending;
    QStringList m_actions;
    QStringList m_pendingReveals; // per pending action: the cards that left this side's hand ("?" unknown)
    QStringList m_pendingRolls;   // per pending action: the dice it rolled ("" none or sealed)
    QList<bool> m_pendingOrdered; // per pending action: taken for the opponent by his standing orders
    bool m_sealedLast = false;    // the last pending action's roll waits for the receiver (sealed)
};

} // namespace wp::save
