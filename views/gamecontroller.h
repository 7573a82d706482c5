// The game behind the window: a rules::Game, the seat of each side, the log's turn headers, saving. Every
// change of state goes through submit() (a legal action, Game::play) or undo() (Game::undo); views only
// read. Seats (design principle 4): a side is played by a human here, the computer (model/ai, thinking on a
// worker thread) or a remote player by e-mail (a save::PbemSession: the game is this side's view of it, and
// this side's actions go through PbemSession::play; the opponent's come in verified turn files).
#pragma once

#include "battle/linked.h"
#include "data/gamedata.h"
#include "rules/game.h"

#include <atomic>

#include "save/pbem.h"

#include <QObject>
#include <QStringList>
#include <memory>
#include <optional>

namespace wp {
namespace ai {
class AiPlayer;
}

// What became of a turn file the window imported (PBEM): shown to the player as it is.
struct TurnImport {
    bool ok = false;
    QString file;         // the file's name
    QString error;        // a refusal: what is wrong, in words (nothing was imported)
    int fromSide = -1;    // who wrote it
    int seq = 0;          // its sequence number
    int fromAction = 0;   // the first action it resolves (the step-through starts there)
    int actions = 0;      // how many actions it resolved here
    QStringList happened; // the opponent's actions with their dice and log lines
    QString status;       // the session's status afterwards
};

enum class SeatKind { Human, Computer, Remote };
QString seatId(SeatKind k);

struct NewGameSetup {
    QString scenario = QStringLiteral("campaign");
    rules::GameOptions options;
    quint64 seed = 1;
    SeatKind seats[2] = {SeatKind::Human, SeatKind::Human};
    bool coverHands = true; // hotseat: a cover screen between the players
    QString computerBot =
        QStringLiteral("search"); // model/ai bot for Computer seats ("priority", "search:3")
};

class GameController : public QObject {
    Q_OBJECT
  public:
    explicit GameController(std::shared_ptr<const GameData> data, QObject* parent = nullptr);
    ~GameController() override;

    const GameData& data() const { return *m_data; }
    std::shared_ptr<const GameData> dataPtr() const { return m_data; }
    bool hasGame() const { return m_game != nullptr; }
    const rules::Game& game() const { return *m_game; }
    const rules::GameState& state() const { return m_game->state(); }
    const std::vector<rules::Action>& legal() const { return m_legal; }
    const rules::Log& log() const; // the engine's log (a PBEM game: as this copy saw it)
    int actor() const { return m_game ? m_game->actor() : -1; }
    bool isHumanHere(int side) const { return side >= 0 && side <= 1 && m_seats[side] == SeatKind::Human; }
    SeatKind seat(int side) const { return m_seats[side]; }
    bool coverHands() const { return m_coverHands; }
    void setCoverHands(bool on) { m_coverHands = on; }
    bool replayable() const { return m_replayable; } // started from a scenario: can be saved
    QString fileName() const { return m_file; }
    void forgetFileName() { m_file.clear(); } // the next save asks where (a resumed autosave)
    QString describe(const rules::Action& a) const;

    bool start(const NewGameSetup& setup, QString* error);
    void startFrom(const rules::GameState& s, const QString& scenario, const rules::GameOptions& options,
                   quint64 seed);
    // Plays a legal action (the only way the GUI changes the game). Returns false with *error if the
    // engine refuses it. `attachment`: the evidence a table result carries (docs/actions.md "Attachments").
    bool submit(const rules::Action& a, QString* error = nullptr, const QString& attachment = {});
    // Every action of the game so far in notation (with attachments); by e-mail the session's, this
    // side's unsent ones included.
    QStringList actionTexts() const;
    // The game's battles (battle::BattleRecord, docs/linked-battles.md "History"): the game replayed from
    // its start, or by e-mail the session's history (its files). False with *error for a game started from
    // a constructed position.
    bool battleHistory(QList<battle::BattleRecord>* out, QString* error) const;
    bool canUndo() const { return m_game && m_game->canUndo(); }
    bool undo();

    bool save(const QString& file, QString* error);
    bool load(const QString& file, QString* error);
    // The autosave (issue 7): the game as a .tyw in `file`, written atomically; nothing for PBEM games
    // (their session directory is written after every action) or constructed positions.
    bool autosave(const QString& file, QString* error);

    // ---- play by e-mail (model/save/pbem.h; the session directory holds this side's secrets)
    bool isPbem() const { return m_pbem != nullptr; }
    const save::PbemSession* pbem() const { return m_pbem.get(); }
    QString pbemDir() const { return m_pbemDir; }
    // Creates a game as host in `dir`: *startFile is the file for the opponent.
    bool newPbem(const QString& scenario, const QStringList& options, int side, save::DiceMode dice,
                 const QString& dir, QByteArray* startFile, QString* error);
    // Joins the game of a start file in `dir` (a new directory): *joinFile is the answer.
    bool joinPbem(const QByteArray& startFile, const QString& name, const QString& dir, QByteArray* joinFile,
                  QString* error);
    bool openPbem(const QString& dir, QString* error);
    TurnImport importTurn(const QByteArray& bytes, const QString& name);
    // The next file: this side's actions since its last file (`reveal`: with the deck secret, at the end).
    bool exportTurn(QByteArray* bytes, QString* fileName, bool reveal, QString* error);
    QString pbemStatus() const { return m_pbem ? m_pbem->status() : QString(); }
    bool pbemMustExport() const { return m_pbem && m_pbem->mustExport(); }
    // This side's standing orders (docs/pbem.md), sent with its next file; the session is saved.
    bool setPbemOrders(const save::StandingOrders& orders, QString* error);

    static QString phaseName(const rules::GameState& s);

    bool computerThinking() const { return m_aiRunning; }
    // Asks the computer to decide now: the search stops and plays the best move found so far.
    void hurryComputer();
    // How far the decision under way is, 0..1 (the search bot's iterations; written by the worker).
    double computerProgress() const { return m_aiProgress ? m_aiProgress->load() : 0.0; }
    QStringList computerReasons() const; // the computer seats' recent decisions with their reasons

  signals:
    void gameStarted();
    void changed(); // after any change of state
    void actionPlayed(const rules::Action& a,
                      qsizetype logBefore); // after submit(), with the log size before
    void computerThinkingChanged(bool thinking);

  private:
    std::shared_ptr<const GameData> m_data;
    std::unique_ptr<rules::Game> m_game;
    std::vector<rules::Action> m_legal;
    SeatKind m_seats[2] = {SeatKind::Human, SeatKind::Human};
    bool m_coverHands = true;
    bool m_replayable = false;
    QString m_file;
    // Computer seats: one AI player per side; a decision runs on a worker thread on a copy of the side's
    // view and is played only if the game has not changed meanwhile (m_aiTicket).
    std::shared_ptr<ai::AiPlayer> m_ai[2];
    bool m_aiRunning = false;
    quint64 m_aiTicket = 0;
    std::shared_ptr<std::atomic<bool>> m_aiCancel;
    std::shared_ptr<std::atomic<double>> m_aiProgress;
    // PBEM
    std::unique_ptr<save::PbemSession> m_pbem;
    QString m_pbemDir;
    rules::Log m_pbemLog;
    void refresh();
    void syncPbem(); // the window's game is the session's view
    bool startPbemView(QString* error);
    void setUpComputers(const QString& bot, quint64 seed);
    void runComputerIfDue();
};

} // namespace wp
