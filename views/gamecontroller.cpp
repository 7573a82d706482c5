#include "gamecontroller.h"

#include "ai/player.h"
#include "describe.h"
#include "save/savefile.h"

#include <QJsonArray>
#include <QThread>
#include <QTimer>

namespace wp {

using namespace rules;

QString seatId(SeatKind k) {
    switch (k) {
    case SeatKind::Human:
        return QStringLiteral("human");
    case SeatKind::Computer:
        return QStringLiteral("computer");
    case SeatKind::Remote:
        return QStringLiteral("remote");
    }
    return {};
}

GameController::GameController(std::shared_ptr<const GameData> data, QObject* parent)
    : QObject(parent), m_data(std::move(data)) {}

GameController::~GameController() {
    if (m_aiCancel)
        *m_aiCancel = true; // a decision under way stops at its next iteration; its result is dropped
}

QString GameController::describe(const Action& a) const {
    return m_game ? describeAction(*m_data, state(), a) : QString();
}

QString GameController::phaseName(const GameState& s) {
    if (s.gameOver)
        return QStringLiteral("Game over");
    if (s.frames.empty())
        return {};
    const auto* t = std::get_if<TurnFrame>(&s.frames.front());
    if (!t)
        return {};
    switch (t->phase) {
    case Phase::Wallenstein:
        return QStringLiteral("A. Wallenstein Phase");
    case Phase::Recovery:
        return QStringLiteral("B. Recovery Phase");
    case Phase::Draw:
        return QStringLiteral("C. Card Draw Phase");
    case Phase::Action:
        return QStringLiteral("D. Action Phase");
    case Phase::Pay:
        return QStringLiteral("E. Pay Phase");
    case Phase::End:
    case Phase::Revolt:
        return QStringLiteral("F. End Phase");
    case Phase::EndOfTurn:
        return QStringLiteral("G. End of Turn");
    case Phase::GameOver:
        return QStringLiteral("Game over");
    }
    return {};
}

void GameController::refresh() {
    m_legal = m_game ? m_game->legalActions() : std::vector<Action>{};
    ++m_aiTicket; // a decision under way is for the old state: it will not be played
    if (m_aiCancel)
        *m_aiCancel = true;
    QTimer::singleShot(0, this, &GameController::runComputerIfDue);
}

void GameController::setUpComputers(const QString& bot, quint64 seed) {
    for (int side : {0, 1}) {
        m_ai[side].reset();
        if (m_seats[side] != SeatKind::Computer)
            continue;
        QString error;
        std::unique_ptr<ai::Bot> b = ai::makeBot(bot, seed + static_cast<quint64>(side), &error);
        if (!b) // an unknown bot name: the priority bot always exists
            b = ai::makeBot(QStringLiteral("priority"), seed, &error);
        m_ai[side] = std::make_shared<ai::AiPlayer>(side, std::move(b));
    }
}

QStringList GameController::computerReasons() const {
    QStringList out;
    for (int side : {0, 1})
        if (m_ai[side])
            out << m_ai[side]->recentReasons(20);
    return out;
}

void GameController::runComputerIfDue() {
    if (!m_game || m_aiRunning || state().gameOver)
        return;
    const int side = actor();
    if (side < 0 || side > 1 || m_seats[side] != SeatKind::Computer || !m_ai[side])
        return;
    // The view is built here, on the thread that owns the game; the worker only reads its own copy.
    auto player = m_ai[side];
    auto view = std::make_shared<ai::SideView>(player->viewOf(m_game->engine(), state()));
    auto result = std::make_shared<ai::Decision>();
    m_aiCancel = std::make_shared<std::atomic<bool>>(false);
    ai::Controls controls;
    controls.cancel = m_aiCancel.get();
    auto cancel = m_aiCancel; // kept alive by the worker
    const quint64 ticket = m_aiTicket;
    QThread* worker = QThread::create(
        [player, view, result, controls, cancel] { *result = player->decide(*view, controls); });
    m_aiRunning = true;
    emit computerThinkingChanged(true);
    connect(worker, &QThread::finished, worker, &QObject::deleteLater);
    connect(worker, &QThread::finished, this, [this, result, ticket] {
        m_aiRunning = false;
        emit computerThinkingChanged(false);
        if (ticket == m_aiTicket && m_game) // nothing changed while it thought (no undo, load, new game)
            submit(result->action);
        else
            runComputerIfDue();
    });
    worker->start();
}

bool GameController::start(const NewGameSetup& setup, QString* error) {
    auto g = std::make_unique<Game>(m_data);
    if (!g->start(setup.scenario, setup.options, setup.seed, error))
        return false;
    m_game = std::move(g);
    m_seats[0] = setup.seats[0];
    m_seats[1] = setup.seats[1];
    m_coverHands = setup.coverHands;
    setUpComputers(setup.computerBot, setup.seed);
    m_replayable = true;
    m_file.clear();
    refresh();
    emit gameStarted();
    emit changed();
    return true;
}

void GameController::startFrom(const GameState& s, const QString& scenario, const GameOptions& options,
                               quint64 seed) {
    m_game = std::make_unique<Game>(m_data);
    m_game->startFrom(s, scenario, options, seed);
    m_seats[0] = m_seats[1] = SeatKind::Human;
    m_ai[0].reset();
    m_ai[1].reset();
    m_replayable = false;
    m_file.clear();
    refresh();
    emit gameStarted();
    emit changed();
}

bool GameController::submit(const Action& a, QString* error) {
    if (!m_game)
        return false;
    if (std::find(m_legal.begin(), m_legal.end(), a) == m_legal.end()) {
        if (error)
            *error = QStringLiteral("That is not a legal action now.");
        return false;
    }
    const qsizetype before = static_cast<qsizetype>(m_game->log().size());
    ApplyResult r = m_game->play(a);
    if (!r.ok) {
        if (error)
            *error = r.error;
        return false;
    }
    refresh();
    emit actionPlayed(a, before);
    emit changed();
    return true;
}

bool GameController::undo() {
    if (!m_game || !m_game->undo())
        return false;
    refresh();
    emit changed();
    return true;
}

bool GameController::save(const QString& file, QString* error) {
    if (!m_game)
        return false;
    if (!m_replayable) {
        if (error)
            *error = QStringLiteral(
                "This game was started from a constructed position, which cannot be saved yet.");
        return false;
    }
    // The .tyw format of model/save (docs/saves.md): gzip of JSON, the action log and its hash chain.
    save::SaveGame g = save::fromGame(*m_game);
    g.extra.insert(QStringLiteral("seats"), QJsonArray{seatId(m_seats[0]), seatId(m_seats[1])});
    if (!save::writeFile(file, g, error))
        return false;
    m_file = file;
    return true;
}

bool GameController::load(const QString& file, QString* error) {
    const std::optional<save::SaveGame> g = save::readFile(file, error);
    if (!g)
        return false;
    auto game = std::make_unique<Game>(m_data);
    if (!save::replay(*g, file, *game, error)) // the fingerprint, then every action through the engine
        return false;
    m_game = std::move(game);
    m_seats[0] = m_seats[1] = SeatKind::Human;
    const QJsonArray seats = g->extra.value(QStringLiteral("seats")).toArray();
    for (int side = 0; side < 2 && side < seats.size(); ++side)
        for (SeatKind k : {SeatKind::Human, SeatKind::Computer, SeatKind::Remote})
            if (seats[side].toString() == seatId(k))
                m_seats[side] = k;
    setUpComputers(QStringLiteral("search"), m_game->seed());
    m_replayable = true;
    m_file = file;
    refresh();
    emit gameStarted();
    emit changed();
    return true;
}

} // namespace wp
