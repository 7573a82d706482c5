// The main window: for now the rendered map of a scenario's set-up, with zoom controls.
#pragma once

#include "data/gamedata.h"

#include <QMainWindow>
#include <memory>

class QComboBox;

namespace wp {

class MapView;

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(std::shared_ptr<const GameData> data, QWidget* parent = nullptr);
    MapView* mapView() const { return m_map; }
    void showScenario(const QString& id);

  private:
    std::shared_ptr<const GameData> m_data;
    MapView* m_map = nullptr;
    QComboBox* m_scenarios = nullptr;
};

} // namespace wp
