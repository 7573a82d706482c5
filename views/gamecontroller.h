// The game behind the window: a rules::Game, the seat of each side, the log's turn headers, saving. Every
// change of state goes through submit() (a legal action, Game::play) or undo() (Game::undo); views only
// read. Seats (design principle 4): a side is played by a human here, the computer (model/ai, thinking on a
// worker thread) or a remote player (PBEM: not yet in the GUI).
#pragma once

#include "data/gamedata.h"
#include "rules/game.h"

#include <atomic>

#include <QObject>
#include <QStringList>
#include <memory>
#include <optional>

namespace wp {
namespace ai {
class AiPlayer;
}

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
    int actor() const { return m_game ? m_game->actor() : -1; }
    bool isHumanHere(int side) const { return side >= 0 && side <= 1 && m_seats[side] == SeatKind::Human; }
    SeatKind seat(int side) const { return m_seats[side]; }
    bool coverHands() const { return m_coverHands; }
    void setCoverHands(bool on) { m_coverHands = on; }
    bool replayable() const { return m_replayable; } // started from a scenario: can be saved
    QString fileName() const { return m_file; }
    QString describe(const rules::Action& a) const;

    bool start(const NewGameSetup& setup, QString* error);
    void startFrom(const rules::GameState& s, const QString& scenario, const rules::GameOptions& options,
                   quint64 seed);
    // Plays a legal action (the only way the GUI changes the game). Returns false with *error if the
    // engine refuses it.
    bool submit(const rules::Action& a, QString* error = nullptr);
    bool canUndo() const { return m_game && m_game->canUndo(); }
    bool undo();

    bool save(const QString& file, QString* error);
    bool load(const QString& file, QString* error);

    static QString phaseName(const rules::GameState& s);

    bool computerThinking() const { return m_aiRunning; }
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
    void refresh();
    void setUpComputers(const QString& bot, quint64 seed);
    void runComputerIfDue();
};

} // namespace wp
