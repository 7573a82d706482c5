#include "mainwindow.h"

#include "mapview.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QStatusBar>
#include <QToolBar>

namespace wp {

MainWindow::MainWindow(std::shared_ptr<const GameData> gameData, QWidget* parent)
    : QMainWindow(parent), m_data(std::move(gameData)) {
    setWindowTitle(QStringLiteral("Westphalia — Thirty Years War"));
    m_map = new MapView(*m_data, this);
    setCentralWidget(m_map);

    auto* tb = addToolBar(QStringLiteral("Map"));
    tb->setObjectName(QStringLiteral("mapToolBar"));
    tb->addWidget(new QLabel(QStringLiteral(" Scenario: "), tb));
    m_scenarios = new QComboBox(tb);
    m_scenarios->addItem(QStringLiteral("(map only)"), QString());
    for (const Scenario& s : m_data->scenarios)
        m_scenarios->addItem(s.name, s.id);
    tb->addWidget(m_scenarios);
    connect(m_scenarios, &QComboBox::currentIndexChanged, this,
            [this](int) { showScenario(m_scenarios->currentData().toString()); });
    tb->addSeparator();
    QAction* in = tb->addAction(QStringLiteral("Zoom in"), m_map, &MapView::zoomIn);
    in->setShortcut(QKeySequence::ZoomIn);
    QAction* out = tb->addAction(QStringLiteral("Zoom out"), m_map, &MapView::zoomOut);
    out->setShortcut(QKeySequence::ZoomOut);
    tb->addAction(QStringLiteral("Fit"), m_map, &MapView::fitMap);

    statusBar()->showMessage(QStringLiteral("Data %1 — fingerprint %2")
                                 .arg(m_data->dataDir, QString::fromLatin1(m_data->fingerprint.left(12))));
    resize(1400, 1000);
    int campaign = m_scenarios->findData(QStringLiteral("campaign"));
    if (campaign >= 0)
        m_scenarios->setCurrentIndex(campaign);
}

void MainWindow::showScenario(const QString& id) {
    const Scenario* s = m_data->scenario(id);
    m_map->setState(s ? MapState::fromScenario(*m_data, *s) : MapState{});
    if (m_scenarios->currentData().toString() != id) {
        int i = m_scenarios->findData(id);
        if (i >= 0)
            m_scenarios->setCurrentIndex(i);
    }
}

} // namespace wp
